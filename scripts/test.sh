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

# Build every product first: the crash-durability tests start the real `fitcircle` binary.
swift build --build-tests
swift test --disable-xctest "$@"
