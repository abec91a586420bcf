#!/usr/bin/env bash
# Events ingested per second through the HTTP API (single and batched) next to a baseline measured in the
# same run: the same rows INSERTed through the same driver (SQLite and PostgreSQL), and pgbench's
# simple-update at the same concurrency on the same PostgreSQL. PostgreSQL runs with its durable defaults.
# Usage: scripts/bench-ingest.sh [concurrency] [single-events]   (defaults 8 and 4000)
set -euo pipefail
cd "$(dirname "$0")/.."
concurrency=${1:-8}
events=${2:-4000}

swift build -c release --product IngestBenchmark >&2
bench=.build/release/IngestBenchmark

echo "== SQLite (WAL, synchronous=NORMAL)"
"$bench" "" "$concurrency" "$events"

source scripts/postgres.sh --durable
echo "== PostgreSQL $("$fitcircle_pg_bin/postgres" --version | awk '{print $3}') (fsync and synchronous_commit on)"
"$bench" "$FITCIRCLE_TEST_DATABASE_URL" "$concurrency" "$events"

echo "== pgbench -b simple-update, $concurrency clients, 20 s"
"$fitcircle_pg_bin/pgbench" -h 127.0.0.1 -p "$fitcircle_pg_port" -U postgres -i -q -s 4 fitcircle_test >/dev/null 2>&1
"$fitcircle_pg_bin/pgbench" -h 127.0.0.1 -p "$fitcircle_pg_port" -U postgres -b simple-update \
    -c "$concurrency" -j 2 -T 20 fitcircle_test 2>/dev/null | grep -E "^tps|latency average"
