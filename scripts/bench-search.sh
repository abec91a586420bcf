#!/usr/bin/env bash
# People search at 1,000,000 accounts, next to a primary-key read of the same table in the same run, on
# SQLite and PostgreSQL (Benchmarks/SearchBenchmark/bench_search.py has the queries and the figures'
# meaning). The schema is made by `fitcircle migrate`; a throwaway PostgreSQL cluster is started.
# Usage: scripts/bench-search.sh [accounts] [queries]   (defaults 1000000 and 2000)
set -euo pipefail
cd "$(dirname "$0")/.."
accounts=${1:-1000000}
queries=${2:-2000}
python3 -c "import psycopg" 2>/dev/null || pip install -q "psycopg[binary]"
swift build --product fitcircle >&2
work=$(mktemp -d)
source scripts/postgres.sh
trap 'rm -rf "$work"; fitcircle_pg_stop' EXIT

echo "== SQLite, $accounts accounts"
.build/debug/fitcircle migrate --database-url "sqlite://$work/search.sqlite" --log-level warning
python3 Benchmarks/SearchBenchmark/bench_search.py sqlite "$work/search.sqlite" "$accounts" "$queries"

echo "== PostgreSQL, $accounts accounts"
.build/debug/fitcircle migrate --database-url "$FITCIRCLE_TEST_DATABASE_URL" --log-level warning
python3 Benchmarks/SearchBenchmark/bench_search.py postgres "${FITCIRCLE_TEST_DATABASE_URL%%\?*}" "$accounts" "$queries"
