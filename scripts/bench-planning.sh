#!/usr/bin/env bash
# Planning a day's scheduled notifications for many synthetic users over every IANA zone on PostgreSQL,
# next to a plain SELECT of the same user rows in the same run (Benchmarks/PlanningBenchmark).
# Usage: scripts/bench-planning.sh [users] [users with a check-in history]   (defaults 1000000 and 1 %)
set -euo pipefail
cd "$(dirname "$0")/.."
users=${1:-1000000}
history=${2:-$((users / 100))}

swift build -c release --product PlanningBenchmark >&2
source scripts/postgres.sh --durable
echo "== PostgreSQL $("$fitcircle_pg_bin/postgres" --version | awk '{print $3}') (fsync and synchronous_commit on)"
.build/release/PlanningBenchmark "$FITCIRCLE_TEST_DATABASE_URL" "$users" "$history"
