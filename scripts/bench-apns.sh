#!/usr/bin/env bash
# Notifications per second to the fake APNs over one HTTP/2 connection with concurrent streams, next to
# the same client sending one stream at a time, in the same run (Benchmarks/APNsBenchmark): once with the
# fake answering at once (loopback) and once answering after a provider's round trip.
# Usage: scripts/bench-apns.sh [notifications] [streams] [latency ms]   (defaults 2000, 100 and 20)
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-2000}
streams=${2:-100}
latency=${3:-20}

swift build -c release --product APNsBenchmark >&2
echo "== loopback, no added latency"
.build/release/APNsBenchmark "$count" "$streams" 0
echo "== each answer after ${latency} ms, as from a provider across a network"
.build/release/APNsBenchmark "$count" "$streams" "$latency"
