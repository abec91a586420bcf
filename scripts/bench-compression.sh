#!/usr/bin/env bash
# What compressed answers cost the server (ResponseCompression): the same reads asked with
# `Accept-Encoding: identity` (the baseline, in the same run) and `gzip`, on answers of three sizes — a
# profile (under a kilobyte: never compressed), a feed page (about 6 KB) and the OpenAPI document (about
# 380 KB) — on the demo database (release build, SQLite). Prints requests/s, bytes/s and the ratio.
# Usage: scripts/bench-compression.sh [seconds]   (Benchmarks/README.md, Compression)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-6}
command -v wrk >/dev/null || { apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >&2; }
swift build -c release --product fitcircle >&2
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
port=18096
.build/release/fitcircle serve --demo --port $port --database-url "sqlite://$work/demo.sqlite" --log-level error >/dev/null &
server=$!
for _ in $(seq 300); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
kill $server; wait $server 2>/dev/null || true
# Budgets a load generator on one address and one user would exhaust at once (every answer a 429).
FITCIRCLE_LIMITS_PER_ADDRESS=1000000000 FITCIRCLE_LIMITS_PER_USER=1000000000 .build/release/fitcircle serve \
    --dev-login --port $port --database-url "sqlite://$work/demo.sqlite" --profiles-dir profiles --log-level error &
server=$!
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
token=$(curl -s -X POST "http://127.0.0.1:$port/api/auth/dev" -H 'content-type: application/json' \
    -d '{"email":"ana@demo.fitcircle.dev"}' | python3 -c 'import sys, json; print(json.load(sys.stdin)["accessToken"])')
rate() {
    wrk -t2 -c16 -d1s -H "Authorization: Bearer $token" -H "Accept-Encoding: $2" "http://127.0.0.1:$port$1" >/dev/null
    wrk -t2 -c16 -d"${seconds}s" -H "Authorization: Bearer $token" -H "Accept-Encoding: $2" "http://127.0.0.1:$port$1" \
        | awk '/Requests\/sec/ {r = $2} /Transfer\/sec/ {t = $2} END {print r, t}'
}
for path in /api/user/profile /api/feed /openapi.yaml; do
    bytes=$(curl -s -H "Authorization: Bearer $token" "http://127.0.0.1:$port$path" | wc -c)
    packed=$(curl -s -H "Authorization: Bearer $token" -H 'Accept-Encoding: gzip' "http://127.0.0.1:$port$path" | wc -c)
    read -r plain plainBytes <<<"$(rate $path identity)"
    read -r gzip gzipBytes <<<"$(rate $path gzip)"
    echo "$path ($bytes bytes, $packed gzipped): identity $plain/s ($plainBytes/s), gzip $gzip/s ($gzipBytes/s)," \
        "ratio $(python3 -c "print(round($gzip / $plain, 2))")"
done
