#!/usr/bin/env bash
# The Swift SDK's outbox and sync next to their baselines in the same run (Benchmarks/OutboxBenchmark):
# durable outbox appends next to raw write+fsync appends, and `FitCircle.sync()` of 5,000 activities next
# to the same batches POSTed directly, against a release server on SQLite.
# Usage: scripts/bench-sdk.sh [appends]   (default 2000)
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product fitcircle >&2
swift build -c release --product OutboxBenchmark >&2
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
port=18090
FITCIRCLE_LIMITS_PER_ADDRESS=1000000000 FITCIRCLE_LIMITS_PER_USER=1000000000 \
    .build/release/fitcircle serve --database-url "sqlite://$work/sdk.sqlite" --dev-login --port $port --profiles-dir profiles --log-level error &
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
.build/release/OutboxBenchmark "${1:-2000}" "http://127.0.0.1:$port"
