#!/usr/bin/env bash
# Circle boards, each next to a baseline measured in the same run (Benchmarks/BoardBenchmark):
#  1. the in-memory rank index on 1,000,000 entries (update, rank, top 10, ±3 neighbours) and its memory per
#     entry, next to Redis's sorted set on the same work (`redis-benchmark` on loopback, one client without
#     pipelining, and 50 clients pipelining 16), with Redis's own memory per entry;
#  2. `GET /api/fitcircles/{id}/leaderboard` of circles of each size in MEMBERS (a comma-separated list) under
#     `wrk`, next to `GET /healthz` of the same server (release build, SQLite), all warm: one member polling,
#     200 members in turn (each their own rows), a poll answered 304, and the generated stack's profile read.
# Redis and wrk come from Debian; neither is a runtime dependency of FitCircle.
# Usage: scripts/bench-boards.sh [entries] [members] [part]   (defaults 1000000, 50000 and all; part: index or http)
#        BACKENDS="sqlite postgres" scripts/bench-boards.sh 0 500,5000,50000 http   (Benchmarks/README.md, Boards)
set -euo pipefail
cd "$(dirname "$0")/.."
entries=${1:-1000000}
sizes=${2:-50000}
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

port=18093
# wrk sends everything from one address: the per-address and per-user limits would measure themselves.
measure() {  # measure NAME URL [wrk options…]: requests/s of 10 s after 3 s of warm-up
    local name=$1 url=$2
    shift 2
    wrk -t2 -c32 -d3s "$@" "$url" >/dev/null
    rate[$name]=$(wrk -t2 -c32 -d10s "$@" "$url" | awk '/Requests\/sec/ {print $2}')
}
backends=${BACKENDS:-sqlite}
if [[ " $backends " == *" postgres "* ]]; then
    source scripts/postgres.sh
    trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"; fitcircle_pg_stop' EXIT
fi
printf '%-9s %-8s %-14s %12s %12s %12s %12s %12s\n' database members layout healthz board board×200 "board 304" profile
for backend in $backends; do
for members in ${sizes//,/ }; do
    if [ "$backend" = postgres ]; then
        "$fitcircle_pg_bin/psql" -h 127.0.0.1 -p "$fitcircle_pg_port" -U postgres -qc "CREATE DATABASE boards_$members" >/dev/null
        database="postgres://postgres@127.0.0.1:$fitcircle_pg_port/boards_$members?sslmode=disable"
    else
        database="sqlite://$work/boards-$members.sqlite"
    fi
    circle=$("$bench" seed "$database" "$members" | tail -1)
    FITCIRCLE_LIMITS_PER_ADDRESS=1000000000 FITCIRCLE_LIMITS_PER_USER=1000000000 FITCIRCLE_LIMITS_SIGN_INS=1000000000 \
        .build/release/fitcircle serve --dev-login --port "$port" --database-url "$database" --log-level error >/dev/null 2>&1 &
    server=$!
    for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
    sign_in() {
        curl -sf -X POST "http://127.0.0.1:$port/api/auth/dev" -H 'Content-Type: application/json' -d "{\"email\": \"member$1@bench.example\"}" \
            | python3 -c 'import json, sys; print(json.load(sys.stdin)["accessToken"])'
    }
    token=$(sign_in $((members / 2)))
    : >"$work/tokens"
    for index in $(seq 0 199); do sign_in $((index * members / 200)) >>"$work/tokens"; done
    # Each wrk thread walks the 200 tokens in turn: 200 members reading the board, each with their own rows.
    cat >"$work/viewers.lua" <<LUA
tokens = {}
for line in io.lines("$work/tokens") do tokens[#tokens + 1] = line end
next_token = 0
request = function()
    next_token = next_token % #tokens + 1
    return wrk.format("GET", nil, { ["Authorization"] = "Bearer " .. tokens[next_token] })
end
LUA
    board="http://127.0.0.1:$port/api/fitcircles/$circle/leaderboard?period=weekly"
    for _ in $(seq 100); do
        [ "$(curl -s -o /dev/null -D - -H "Authorization: Bearer $token" "$board" | tr -d '\r' | awk -F': ' 'tolower($1) == "fitcircle-board-source" {print $2}')" = index ] && break
        sleep 0.1
    done
    layout=$(curl -s -H "Authorization: Bearer $token" "$board" | python3 -c 'import json, sys; b = json.load(sys.stdin); print(b["layout"])')
    tag=$(curl -s -o /dev/null -D - -H "Authorization: Bearer $token" "$board" | tr -d '\r' | awk -F': ' 'tolower($1) == "etag" {print $2}')
    declare -A rate
    measure healthz "http://127.0.0.1:$port/healthz"
    measure board "$board" -H "Authorization: Bearer $token"
    measure viewers "$board" -s "$work/viewers.lua"
    measure unchanged "$board" -H "Authorization: Bearer $token" -H "If-None-Match: $tag"
    measure profile "http://127.0.0.1:$port/api/user/profile" -H "Authorization: Bearer $token"
    ratio() { awk -v r="$1" -v h="${rate[healthz]}" 'BEGIN { printf "%.0f (%.2f)", r, r / h }'; }
    printf '%-9s %-8s %-14s %12.0f %12s %12s %12s %12s\n' "$backend" "$members" "$layout" "${rate[healthz]}" "$(ratio "${rate[board]}")" \
        "$(ratio "${rate[viewers]}")" "$(ratio "${rate[unchanged]}")" "$(ratio "${rate[profile]}")"
    kill "$server"
    wait "$server" 2>/dev/null || true
done
done
