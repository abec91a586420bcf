#!/usr/bin/env bash
# Circle boards, each next to a baseline measured in the same run (Benchmarks/BoardBenchmark):
#  1. the in-memory rank index on 1,000,000 entries (update, rank, top 10, ±3 neighbours) and its memory per
#     entry, next to Redis's sorted set on the same work (`redis-benchmark` on loopback, one client without
#     pipelining, and 50 clients pipelining 16), with Redis's own memory per entry;
#  2. `GET /api/fitcircles/{id}/leaderboard` of a 50,000-member circle under `wrk`, next to `GET /healthz` of
#     the same server (release build, SQLite), all warm, with the generated stack's lightest reads for scale.
# Redis and wrk come from Debian; neither is a runtime dependency of FitCircle.
# Usage: scripts/bench-boards.sh [entries] [members] [part]   (defaults 1000000, 50000 and all; part: index or http)
set -euo pipefail
cd "$(dirname "$0")/.."
entries=${1:-1000000}
members=${2:-50000}
part=${3:-all}

if ! command -v redis-server >/dev/null || ! command -v wrk >/dev/null; then
    apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server redis-tools wrk >&2
fi
swift build -c release --product BoardBenchmark >&2
swift build -c release --product fitcircle >&2
bench=.build/release/BoardBenchmark
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

if [ "$part" != http ]; then
echo "== RankIndex, $entries entries (in process)"
"$bench" index "$entries"

echo "== Redis $(redis-server --version | awk '{print $3}'), $entries members in one sorted set (loopback)"
redis_port=6399
redis-server --port "$redis_port" --save '' --appendonly no --daemonize no >/dev/null &
for _ in $(seq 50); do redis-cli -p "$redis_port" ping >/dev/null 2>&1 && break; sleep 0.1; done
empty=$(redis-cli -p "$redis_port" info memory | awk -F: '/^used_memory:/ {print $2+0}')
awk -v n="$entries" 'BEGIN { srand(7); for (i = 0; i < n; i++) printf "ZADD board %d m:%d\n", int(rand() * 100000), i }' \
    | redis-cli -p "$redis_port" --pipe >/dev/null
full=$(redis-cli -p "$redis_port" info memory | awk -F: '/^used_memory:/ {print $2+0}')
echo "used_memory $(( (full - empty) / 1048576 )) MiB = $(( (full - empty) / entries )) bytes per entry"
middle=$((entries / 2))
for mode in "-c 1 -P 1" "-c 50 -P 16"; do
    echo "-- redis-benchmark $mode"
    for command in "ZADD board __rand_int__ m:__rand_int__" "ZREVRANK board m:__rand_int__" "ZREVRANGE board 0 9" \
        "ZREVRANGE board $((middle - 3)) $((middle + 3))"; do
        # shellcheck disable=SC2086
        result=$(redis-benchmark -p "$redis_port" -n 200000 -r "$entries" $mode -q $command | tr '\r' '\n' | grep -E "requests per second" | tail -1)
        printf '%-44s %s\n' "$command" "$result"
    done
done
fi
[ "$part" = index ] && exit 0

echo "== GET /api/fitcircles/{id}/leaderboard, $members members, next to GET /healthz, /api/config and /api/user/profile (wrk, 2 threads, 32 connections, 10 s each)"
database="sqlite://$work/boards.sqlite"
circle=$("$bench" seed "$database" "$members" | tail -1)
port=18093
# wrk sends everything from one address: the per-address and per-user limits would measure themselves.
FITCIRCLE_LIMITS_PER_ADDRESS=1000000000 FITCIRCLE_LIMITS_PER_USER=1000000000 FITCIRCLE_LIMITS_SIGN_INS=1000000000 \
    .build/release/fitcircle serve --dev-login --port "$port" --database-url "$database" --log-level error >/dev/null 2>&1 &
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
token=$(curl -sf -X POST "http://127.0.0.1:$port/api/auth/dev" -H 'Content-Type: application/json' \
    -d "{\"email\": \"member$((members / 2))@bench.example\"}" | python3 -c 'import json, sys; print(json.load(sys.stdin)["accessToken"])')
board="http://127.0.0.1:$port/api/fitcircles/$circle/leaderboard?period=weekly"
for _ in $(seq 100); do
    [ "$(curl -s -o /dev/null -D - -H "Authorization: Bearer $token" "$board" | tr -d '\r' | awk -F': ' 'tolower($1) == "fitcircle-board-source" {print $2}')" = index ] && break
    sleep 0.1
done
curl -s -H "Authorization: Bearer $token" "$board" | python3 -c 'import json, sys; b = json.load(sys.stdin); print("layout", b["layout"], "entries", b["entries"], "rows", len(b["rows"]))'
# The references: /healthz (Hummingbird alone), GET /api/config (the generated OpenAPI stack, no sign-in) and
# GET /api/user/profile (the generated stack with sign-in, one cached row): the floor a board read sits on.
declare -A rate
for target in "$board" "http://127.0.0.1:$port/healthz" "http://127.0.0.1:$port/api/config" "http://127.0.0.1:$port/api/user/profile"; do
    name=$(basename "${target%%\?*}")
    wrk -t2 -c32 -d3s -H "Authorization: Bearer $token" "$target" >/dev/null
    rate[$name]=$(wrk -t2 -c32 -d10s -H "Authorization: Bearer $token" "$target" | awk '/Requests\/sec/ {print $2}')
    printf '%-24s %10.0f requests/s\n' "$name" "${rate[$name]}"
done
for name in leaderboard config profile; do
    awk -v name="$name" -v r="${rate[$name]}" -v h="${rate[healthz]}" 'BEGIN { printf "%-24s %.2f of /healthz\n", name, r / h }'
done
