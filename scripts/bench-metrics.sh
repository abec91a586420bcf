#!/usr/bin/env bash
# The operators' metrics request over a large population, next to a baseline measured in the same run
# (Benchmarks/MetricsBenchmark, release build), on SQLite and PostgreSQL: `Metrics.report` over 90 days of
# rollup rows (by day and by week) against `SELECT COUNT(*) FROM users` of the same 1,000,000 accounts.
# Usage: scripts/bench-metrics.sh [users] [days] [requests]   (defaults 1000000, 90, 200)
#        ROLLUP=1 scripts/bench-metrics.sh [users] [events each]   (defaults 1000000, 5): the nightly rollup of
#        a day holding that many events a person (`Metrics.rollUp`) next to a `COUNT(*)` of the day's events
set -euo pipefail
cd "$(dirname "$0")/.."
users=${1:-1000000}
days=${2:-90}
requests=${3:-200}
swift build -c release --product MetricsBenchmark >&2
work=$(mktemp -d)
source scripts/postgres.sh
trap 'rm -rf "$work"; fitcircle_pg_stop' EXIT

schema="bench_metrics_$RANDOM"
psql "$FITCIRCLE_TEST_DATABASE_URL" -qc "CREATE SCHEMA $schema" >/dev/null
case $FITCIRCLE_TEST_DATABASE_URL in *\?*) url="$FITCIRCLE_TEST_DATABASE_URL&schema=$schema" ;; *) url="$FITCIRCLE_TEST_DATABASE_URL?schema=$schema" ;; esac
if [ -n "${ROLLUP:-}" ]; then
    each=${2:-5}
    echo "== SQLite: the rollup of a day, $users accounts, $each events each"
    .build/release/MetricsBenchmark rollup "sqlite://$work/metrics.sqlite" "$users" "$each"
    echo "== PostgreSQL: the rollup of a day, $users accounts, $each events each"
    .build/release/MetricsBenchmark rollup "$url" "$users" "$each"
    exit 0
fi
echo "== SQLite: $users accounts, $days days"
.build/release/MetricsBenchmark report "sqlite://$work/metrics.sqlite" "$users" "$days" "$requests"
echo "== PostgreSQL: $users accounts, $days days"
.build/release/MetricsBenchmark report "$url" "$users" "$days" "$requests"
