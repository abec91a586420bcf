#!/usr/bin/env bash
# The code's layout is the toolchain's `swift format` with the committed `.swift-format` (4 spaces, lines of
# at most 120 columns, an argument a line when a call does not fit). `scripts/format.sh` rewrites every file;
# `scripts/format.sh --check` (in scripts/test.sh) fails on any file that is not laid out so. The generated
# SDK client (`Sources/FitCircleClient/Generated`) is the generator's to lay out.
set -euo pipefail
cd "$(dirname "$0")/.."
files() { find Sources Tests Benchmarks Examples -name '*.swift' -not -path '*/Generated/*' -not -path '*/.build/*' | sort; }
if [ "${1:-}" = --check ]; then
    files | xargs swift format lint --strict --parallel
else
    files | xargs swift format format -i --parallel
fi
