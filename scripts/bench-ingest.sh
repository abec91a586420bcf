#!/usr/bin/env bash
# Events ingested per second through the HTTP API (single and batched) next to a baseline measured in the
# same run: the same rows INSERTed through the same driver (SQLite and PostgreSQL), and pgbench's
# simple-update at the same concurrency on the same PostgreSQL. PostgreSQL runs with its durable defaults.
# Each concurrency gets a fresh database. Group commit shares a transaction among the requests waiting, so
# the API's ratio grows with the number of clients: the sweep shows where it stands.
# Usage: scripts/bench-ingest.sh [concurrencies] [single-events]   (defaults "8 16 32 64" and 4000)
set -euo pipefail
cd "$(dirname "$0")/.."
concurrencies=${1:-8 16 32 64}
events=${2:-4000}

swift build -c release --product IngestBenchmark >&2
bench=.build/release/IngestBenchmark

for concurrency in $concurrencies; do
    echo "== SQLite (WAL, synchronous=NORMAL), $concurrency clients"
    "$bench" "" "$concurrency" "$events"
done

source scripts/postgres.sh --durable
psql() { "$fitcircle_pg_bin/psql" -h 127.0.0.1 -p "$fitcircle_pg_port" -U postgres -q "$@"; }
for concurrency in $concurrencies; do
    echo "== PostgreSQL $("$fitcircle_pg_bin/postgres" --version | awk '{print $3}') (fsync and synchronous_commit on), $concurrency clients"
    psql -c "CREATE DATABASE ingest_$concurrency" >/dev/null
    "$bench" "postgres://postgres@127.0.0.1:$fitcircle_pg_port/ingest_$concurrency?sslmode=disable" "$concurrency" "$events"
    echo "-- pgbench -b simple-update, $concurrency clients, 20 s"
    "$fitcircle_pg_bin/pgbench" -h 127.0.0.1 -p "$fitcircle_pg_port" -U postgres -i -q -s 4 "ingest_$concurrency" >/dev/null 2>&1
    "$fitcircle_pg_bin/pgbench" -h 127.0.0.1 -p "$fitcircle_pg_port" -U postgres -b simple-update \
        -c "$concurrency" -j 2 -T 20 "ingest_$concurrency" 2>/dev/null | grep -E "^tps|latency average"
done
