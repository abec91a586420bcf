#!/usr/bin/env bash
# No trap where a request or a job can reach: no force-unwrap, `try!` or `fatalError` in Sources. The
# formatter's NeverForceUnwrap and NeverUseForceTry rules (scripts/swift-format-traps.json) find the first
# two, grep the third. Left out: the generated OpenAPI code, and FitCircleTesting, the tests' fakes and
# fixtures (no server links it; a trap there fails a test, not a node). Run by scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

files=$(find Sources -name '*.swift' -not -path '*/Generated/*' -not -path 'Sources/FitCircleTesting/*' | sort)
# `swift format lint` also reports layout, which these rules do not judge: only their findings count.
found=$(echo "$files" | xargs swift format lint --configuration scripts/swift-format-traps.json 2>&1 \
    | grep -E '\[(NeverForceUnwrap|NeverUseForceTry)\]' || true)
fatal=$(echo "$files" | xargs grep -nE '\bfatalError\(' || true)
count=$(printf '%s\n%s\n' "$found" "$fatal" | grep -c . || true)
if [ "$count" -gt 0 ]; then
    printf '%s\n%s\n' "$found" "$fatal" | grep . >&2
    echo "check-traps: $count force-unwraps, force-tries or fatalErrors in Sources (0 allowed)" >&2
    exit 1
fi
echo "check-traps: no force-unwrap, try! or fatalError in $(echo "$files" | wc -l) files of Sources"
