#!/usr/bin/env bash
# `GET /api/feed` of a user with 500 friends (200 workouts each), next to `GET /api/user/profile` of the
# same user on the same server in the same run (wrk, release build), on SQLite and PostgreSQL. The friends
# and workouts are written straight into the database (Benchmarks/FeedBenchmark/seed_feed.py).
# Usage: scripts/bench-feed.sh [friends] [workouts each] [seconds]   (defaults 500, 200, 10)
#        CHURN=20 scripts/bench-feed.sh …   (the page changed 20 times a second while it is read)
set -euo pipefail
cd "$(dirname "$0")/.."
friends=${1:-500}
workouts=${2:-200}
seconds=${3:-10}
command -v wrk >/dev/null || { apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >&2; }
python3 -c "import psycopg" 2>/dev/null || pip install -q "psycopg[binary]"
swift build -c release --product fitcircle >&2
work=$(mktemp -d)
source scripts/postgres.sh
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"; fitcircle_pg_stop' EXIT
port=18089

run() {
    local backend=$1 url=$2 seed_target=$3
    # Budgets a load generator on one address and one user would exhaust at once (every answer a 429).
    FITCIRCLE_LIMITS_PER_ADDRESS=1000000000 FITCIRCLE_LIMITS_PER_USER=1000000000 \
        .build/release/fitcircle serve --database-url "$url" --dev-login --port $port --profiles-dir profiles --log-level error &
    local server=$!
    for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
    local signin token id
    signin=$(curl -s -X POST "http://127.0.0.1:$port/api/auth/dev" -H 'content-type: application/json' -d '{"email":"viewer@example.com"}')
    token=$(echo "$signin" | python3 -c 'import sys, json; print(json.load(sys.stdin)["accessToken"])')
    id=$(echo "$signin" | python3 -c 'import sys, json; print(json.load(sys.stdin)["user"]["id"])')
    curl -sf -X PUT "http://127.0.0.1:$port/api/user/profile" -H "authorization: Bearer $token" -H 'content-type: application/json' \
        -d '{"displayName": "Viewer", "age": 30, "weight": {"value": 70, "unit": "kg"}, "timeZone": "UTC"}' >/dev/null
    python3 Benchmarks/FeedBenchmark/seed_feed.py "$backend" "$seed_target" "$id" "$friends" "$workouts"
    local items
    items=$(curl -s "http://127.0.0.1:$port/api/feed" -H "authorization: Bearer $token" | python3 -c 'import sys, json; print(len(json.load(sys.stdin)["items"]))')
    echo "$backend: a page of the feed holds $items workouts"
    local churner=""
    if [ "${CHURN:-0}" != 0 ]; then
        # A reaction given and taken back on the newest workout of the page, CHURN times a second: each one
        # changes the page, which is built again at the next read.
        local newest
        newest=$(curl -s "http://127.0.0.1:$port/api/feed" -H "authorization: Bearer $token" | python3 -c 'import sys, json; print(json.load(sys.stdin)["items"][0]["activityId"])')
        (while true; do
            curl -s -o /dev/null -X POST "http://127.0.0.1:$port/api/activities/$newest/reactions" -H "authorization: Bearer $token" \
                -H 'content-type: application/json' -d '{"reaction": "👍"}'
            sleep "$(python3 -c "print(1 / $CHURN)")"
            curl -s -o /dev/null -X DELETE "http://127.0.0.1:$port/api/activities/$newest/reactions/%F0%9F%91%8D" -H "authorization: Bearer $token"
            sleep "$(python3 -c "print(1 / $CHURN)")"
        done) &
        churner=$!
        echo "  with the page changed $CHURN times a second"
    fi
    for route in /api/user/profile /api/feed; do
        wrk -t2 -c16 -d2s -H "Authorization: Bearer $token" "http://127.0.0.1:$port$route" >/dev/null  # warm-up
        wrk -t2 -c16 -d"${seconds}s" --latency -H "Authorization: Bearer $token" "http://127.0.0.1:$port$route" \
            | awk -v r="$route" '/Requests\/sec/ {print "  " r ": " $2 " requests/s"} / 50%/ {print "    p50 " $2} / 99%/ {print "    p99 " $2}
                /Non-2xx/ {print "    NOT 200: " $0}'
    done
    [ -n "$churner" ] && kill "$churner"
    # How many pages were built and how many served again as kept (warm-up included).
    curl -s "http://127.0.0.1:$port/metrics" | awk '/^fitcircle_hot_reads_total\{.*getFriendFeed/ {print "  " $0}'
    kill $server; wait $server 2>/dev/null || true
}

echo "== SQLite"
run sqlite "sqlite://$work/feed.sqlite" "$work/feed.sqlite"
echo "== PostgreSQL"
run postgres "$FITCIRCLE_TEST_DATABASE_URL" "${FITCIRCLE_TEST_DATABASE_URL%%\?*}"
