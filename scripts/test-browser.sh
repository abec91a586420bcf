#!/usr/bin/env bash
# The web app in a real browser: headless Chromium (Debian's chromium and chromium-driver) driven by
# Selenium, with axe-core's accessibility check (axe-selenium-python), against a `fitcircle serve --demo`
# the tests start on a fresh SQLite file. Screenshots of every page at desktop and phone width land in
# screenshots/ (FITCIRCLE_SCREENSHOTS to change it). Expects `swift build` to have built .build/debug/fitcircle.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    if [ "$(id -u)" = 0 ]; then
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq
        # The emoji font: the screenshots show the app's emoji as people see them.
        apt-get install -y -qq chromium chromium-driver fonts-noto-color-emoji >/dev/null
    else
        echo "Chromium and chromedriver are needed: apt-get install chromium chromium-driver" >&2
        exit 1
    fi
fi
python3 -c "import selenium, axe_selenium_python" 2>/dev/null || pip install -q selenium axe-selenium-python

[ -x .build/debug/fitcircle ] || swift build
timeout -k 10 600 python3 -m unittest discover -s Tests/Browser -p 'test_*.py' -v
