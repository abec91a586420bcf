#!/usr/bin/env bash
# Challenges at scale, each next to a baseline measured in the same run (Benchmarks/ChallengeBenchmark,
# release builds), on SQLite and PostgreSQL:
#  1. settling 10,000 challenges (3 participants each, staked) that all end at the same minute — the jobs a
#     node runs: settle, pay out, set badge counters — next to a plain read of their participant rows;
#  2. `GET /api/competitions/{id}/leaderboard` of a 10,000-participant challenge under `wrk`, next to
#     `GET /healthz` of the same server.
# Usage: scripts/bench-challenges.sh [challenges] [participants] [seconds]   (defaults 10000, 10000, 10)
#        BOARD_ONLY=1 scripts/bench-challenges.sh 0 1000   (the board alone, at another size; then a poll that
#        sends the last answer's tag, as an app does)
set -euo pipefail
cd "$(dirname "$0")/.."
challenges=${1:-10000}
participants=${2:-10000}
seconds=${3:-10}
command -v wrk >/dev/null || { apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >&2; }
swift build -c release --product ChallengeBenchmark >&2
swift build -c release --product fitcircle >&2
work=$(mktemp -d)
source scripts/postgres.sh
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"; fitcircle_pg_stop' EXIT
port=18097

schema_url() {  # a fresh schema of the cluster's database for each run
    local schema="bench_$1_$RANDOM"
    psql "$FITCIRCLE_TEST_DATABASE_URL" -qc "CREATE SCHEMA $schema" >/dev/null
    case $FITCIRCLE_TEST_DATABASE_URL in *\?*) echo "$FITCIRCLE_TEST_DATABASE_URL&schema=$schema" ;; *) echo "$FITCIRCLE_TEST_DATABASE_URL?schema=$schema" ;; esac
}

board() {
    local url=$1 id token
    id=$(.build/release/ChallengeBenchmark board "$url" "$participants" | tail -1)
    FITCIRCLE_LIMITS_PER_ADDRESS=1000000000 FITCIRCLE_LIMITS_PER_USER=1000000000 FITCIRCLE_LIMITS_SIGN_INS=1000000000 \
        .build/release/fitcircle serve --database-url "$url" --dev-login --port $port --profiles-dir profiles --log-level error &
    local server=$!
    for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
    token=$(curl -sf -X POST "http://127.0.0.1:$port/api/auth/dev" -H 'content-type: application/json' \
        -d "{\"email\": \"member$((participants / 2))@bench.example\"}" | python3 -c 'import sys, json; print(json.load(sys.stdin)["accessToken"])')
    local rows
    rows=$(curl -s "http://127.0.0.1:$port/api/competitions/$id/leaderboard" -H "authorization: Bearer $token" \
        | python3 -c 'import sys, json; b = json.load(sys.stdin); print(b["entries"], "entries;", len(b["rows"]), "rows with the caller at", b["me"]["rank"])')
    echo "  the board: $rows"
    for route in /healthz "/api/competitions/$id/leaderboard"; do
        wrk -t2 -c16 -d2s -H "Authorization: Bearer $token" "http://127.0.0.1:$port$route" >/dev/null  # warm-up
        wrk -t2 -c16 -d"${seconds}s" --latency -H "Authorization: Bearer $token" "http://127.0.0.1:$port$route" \
            | awk -v r="${route%%\?*}" '/Requests\/sec/ {print "  " r ": " $2 " requests/s"} / 50%/ {print "    p50 " $2} / 99%/ {print "    p99 " $2}
                /Non-2xx/ {print "    NOT 200: " $0}'
    done
    # An app polling the board with the tag of the last answer it got: a 304 while the page is unchanged
    # (a running challenge's time remaining changes it every second, so each connection gets a 200 a second).
    cat >"$work/poll.lua" <<LUA
local threads = {}
setup = function(thread) table.insert(threads, thread) end
local tag, unchanged, answers = "", 0, 0
request = function()
    return wrk.format("GET", "/api/competitions/$id/leaderboard", {["Authorization"] = "Bearer $token", ["If-None-Match"] = tag})
end
response = function(status, headers, body)
    answers = answers + 1
    if status == 304 then unchanged = unchanged + 1 end
    for name, value in pairs(headers) do if string.lower(name) == "etag" then tag = value end end
end
done = function(summary, latency, requests)
    local u, a = 0, 0
    for _, thread in ipairs(threads) do u = u + thread:get("unchanged"); a = a + thread:get("answers") end
    io.write(string.format("    answered 304: %d of %d\\n", u, a))
end
LUA
    wrk -t2 -c16 -d"${seconds}s" --latency -s "$work/poll.lua" "http://127.0.0.1:$port" \
        | awk '/Requests\/sec/ {print "  polled with the last tag: " $2 " requests/s"} / 50%/ {print "    p50 " $2} / 99%/ {print "    p99 " $2}
            /Non-2xx/ {print "    NOT 200 or 304: " $0} /answered 304/ {print}'
    kill $server; wait $server 2>/dev/null || true
}

if [ -z "${BOARD_ONLY:-}" ]; then
echo "== SQLite: settling $challenges challenges due at the same minute"
.build/release/ChallengeBenchmark settle "sqlite://$work/settle.sqlite" "$challenges" 3
fi
echo "== SQLite: a board of $participants participants"
board "sqlite://$work/board.sqlite"
if [ -z "${BOARD_ONLY:-}" ]; then
echo "== PostgreSQL: settling $challenges challenges due at the same minute"
.build/release/ChallengeBenchmark settle "$(schema_url settle)" "$challenges" 3
fi
echo "== PostgreSQL: a board of $participants participants"
board "$(schema_url board)"
