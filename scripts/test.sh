#!/usr/bin/env bash
# Runs the whole test suite on SQLite and, in the same run, on PostgreSQL: a throwaway cluster is started
# unless FITCIRCLE_TEST_DATABASE_URL already names one. Extra arguments go to `swift test`.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${FITCIRCLE_TEST_DATABASE_URL:-}" ]; then
    if [ "$(id -u)" = 0 ]; then
        source scripts/postgres.sh
    else
        echo "Not root: running on SQLite only. Set FITCIRCLE_TEST_DATABASE_URL to include PostgreSQL." >&2
    fi
fi

# The email tests hand mail to a real SMTP server on loopback: Python's aiosmtpd.
python3 -c "import aiosmtpd" 2>/dev/null || pip install -q aiosmtpd

# No trap a request or a job can reach: no force-unwrap, try! or fatalError in Sources (seconds).
bash scripts/check-traps.sh
# Every file laid out by `swift format` (scripts/format.sh; seconds).
bash scripts/format.sh --check
# The API's document is valid OpenAPI and every example in it fits its schema (seconds).
bash scripts/lint-openapi.sh

# Build every product first: the crash-durability tests start the real `fitcircle` binary.
swift build --build-tests

# The Swift SDK: its committed client is what the document generates, and an app that adds the package
# fetches nothing of the server's.
bash scripts/generate-client.sh --check
bash scripts/check-client-dependencies.sh
# The document serves other languages too: a Python client generated from it runs the daily loop.
bash scripts/test-python-client.sh

# Two runs: the suite (about 10–12 minutes on 2 cores), then the sixty-day population of issue 24 alone (about
# 5 minutes: it lives every day of 60 with the server's jobs, on both databases); then the browser tests
# (scripts/test-browser.sh, under a minute). Arguments, such as `--filter`, make it one run of what they
# select, without the browser.
# A run that has not ended after its time is stuck: it is stopped, the tests that never finished are
# named, and it runs once more. (Guard against an intermittent hang, seen under heavy load since
# 2026-11-22; the one cause found, on 2026-11-24, was a test node drawn onto a taken port, fixed in
# `ServerProcess.start`. A failing test is never retried. The output is buffered: the last
# few tests named may have finished.)
log=$(mktemp)
# Adds to the EXIT trap scripts/postgres.sh set (replacing it would leave its cluster running).
trap 'rm -f "$log"; if declare -F fitcircle_pg_stop >/dev/null; then fitcircle_pg_stop; fi' EXIT
guarded() {
    local minutes=$1
    shift
    for attempt in 1 2; do
        set +e
        timeout -k 10 $((minutes * 60)) swift test --disable-xctest "$@" 2>&1 | tee "$log"
        status=${PIPESTATUS[0]}
        set -e
        [ "$status" = 124 ] || [ "$status" = 137 ] || return "$status"
        pkill -f fitcirclePackageTests.xctest || true
        echo "Test run stuck after $minutes minutes (attempt $attempt). Tests that never finished:" >&2
        grep -o 'Test [A-Za-z0-9_]*([^)]*) started' "$log" | sed 's/ started$//' | sort -u > "$log.started"
        grep -oE '[✔✘] Test [A-Za-z0-9_]*\([^)]*\)' "$log" | sed 's/^[^ ]* //' | sort -u > "$log.finished"
        comm -23 "$log.started" "$log.finished" >&2
        rm -f "$log.started" "$log.finished"
    done
    return 1
}
if [ $# -gt 0 ]; then
    guarded 25 "$@"
else
    guarded 20 --skip Spec000PopulationTests
    guarded 20 --filter Spec000PopulationTests
    # The web app in a real browser (Chromium, Selenium, axe-core).
    bash scripts/test-browser.sh
fi
