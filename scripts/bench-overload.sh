#!/usr/bin/env bash
# Overload on a write-heavy route (POST /api/activities): requests offered at a fixed rate (open loop) at
# the sustainable rate (half the closed-loop peak measured first, in the same run) and at twice it, on a
# node with the default limits.maxInFlight (512) and on one with a tighter limit. Reports the share refused
# (429/503) and the p50/p99 latency of admitted requests next to the sustainable run's.
# Usage: scripts/bench-overload.sh [sqlite|postgres] [clients for the peak] [tight maxInFlight]
set -euo pipefail
cd "$(dirname "$0")/.."
database=${1:-sqlite}
clients=${2:-16}
tight=${3:-64}
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"

swift build -c release --product IngestBenchmark >&2
bench=.build/release/IngestBenchmark

if [ "$database" = postgres ]; then
    source scripts/postgres.sh --durable
    "$fitcircle_pg_bin/psql" -h 127.0.0.1 -p "$fitcircle_pg_port" -U postgres -qc "CREATE DATABASE overload" >/dev/null
    echo "== PostgreSQL (fsync and synchronous_commit on)"
    "$bench" "postgres://postgres@127.0.0.1:$fitcircle_pg_port/overload?sslmode=disable" "$clients" 10000 overload "$tight"
else
    echo "== SQLite (WAL, synchronous=NORMAL)"
    "$bench" "" "$clients" 10000 overload "$tight"
fi
