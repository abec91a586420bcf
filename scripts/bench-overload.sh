#!/usr/bin/env bash
# Overload on a write-heavy route (POST /api/activities): requests offered at a fixed rate (open loop) at
# the sustainable rate (half the closed-loop peak measured first, in the same run) and at twice it. The node
# with the default limits (adaptive between limits.minInFlight and limits.maxInFlight) takes the sustainable
# rate, twice it, then the sustainable rate again (recovery); nodes with the limit fixed at the default
# maximum (512) and at a tighter value take twice it. Reports the share refused (429/503), the p50/p99
# latency of admitted requests next to the sustainable run's, goodput against the peak, and the adaptive
# limit every half second (from /metrics).
# Usage: scripts/bench-overload.sh [sqlite|postgres] [clients for the peak] [tight fixed limit]
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
