#!/usr/bin/env bash
# Live boards at scale (issue 42): one node with STREAMS open circle streams (the per-node and per-user caps
# raised for the run), the server's memory per open stream, and how soon one claim reaches them all
# (Benchmarks/StreamBenchmark/streams.py). Release build, SQLite.
# Usage: scripts/bench-streams.sh [streams]   (default 10000)
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-10000}
swift build -c release --product fitcircle >&2
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
ulimit -n "$(ulimit -Hn)"  # a descriptor per stream on each side (10,000 fit under 20,000)
port=18095
FITCIRCLE_LIMITS_PER_ADDRESS=1000000000 FITCIRCLE_LIMITS_PER_USER=1000000000 FITCIRCLE_LIMITS_SIGN_INS=1000000000 \
    FITCIRCLE_LIMITS_STREAMS_PER_NODE=$((count + 100)) FITCIRCLE_LIMITS_STREAMS_PER_USER=$((count + 100)) \
    .build/release/fitcircle serve --dev-login --port "$port" --database-url "sqlite://$work/streams.sqlite" --log-level error >/dev/null 2>&1 &
server=$!
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
member() {
    local token
    token=$(curl -sf -X POST "http://127.0.0.1:$port/api/auth/dev" -H 'Content-Type: application/json' -d "{\"email\": \"$1@bench.example\"}" \
        | python3 -c 'import json, sys; print(json.load(sys.stdin)["accessToken"])')
    curl -sf -X PUT "http://127.0.0.1:$port/api/user/profile" -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
        -d "{\"displayName\": \"$1\", \"age\": 30, \"weight\": {\"value\": 70, \"unit\": \"kg\"}, \"timeZone\": \"UTC\"}" >/dev/null
    echo "$token"
}
viewer=$(member viewer)
claimer=$(member claimer)
created=$(curl -sf -X POST "http://127.0.0.1:$port/api/fitcircles" -H "Authorization: Bearer $viewer" -H 'Content-Type: application/json' \
    -d '{"name": "Streams", "metric": "steps", "privacy": "public"}')
circle=$(echo "$created" | python3 -c 'import json, sys; print(json.load(sys.stdin)["id"])')
code=$(echo "$created" | python3 -c 'import json, sys; print(json.load(sys.stdin)["joinCode"])')
curl -sf -X POST "http://127.0.0.1:$port/api/fitcircles/join" -H "Authorization: Bearer $claimer" -H 'Content-Type: application/json' \
    -d "{\"code\": \"$code\"}" >/dev/null
python3 Benchmarks/StreamBenchmark/streams.py "$port" "$circle" "$viewer" "$claimer" "$server" "$count"
