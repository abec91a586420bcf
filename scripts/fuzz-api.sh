#!/usr/bin/env bash
# Schema-driven fuzzing of the running API with schemathesis (PyPI): every operation, valid and invalid
# inputs generated from openapi.yaml, then stateful sequences that follow the document's links (a circle
# created, then read, joined, claimed, its feed, boards and the export; a challenge staked, then its board
# and the ledger; a friend blocked, then everything of theirs read; a member removed, then the circle
# read), signed in as an onboarded user with some XP to stake and a friend to block. Between the phases,
# and after them, the social half's flows are walked by scripts/fuzz-social-walk.py and the server must
# still answer: a run that kills it fails loudly, with its log. Fails if any request gets a 5xx.
# Usage: scripts/fuzz-api.sh [sqlite] [postgres]   (default both; each on a fresh database: a temporary
# SQLite file, and a new schema of FITCIRCLE_TEST_DATABASE_URL or of a throwaway cluster it starts)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v schemathesis >/dev/null || pip install -q schemathesis >/dev/null 2>&1
swift build --product fitcircle >&2

work=$(mktemp -d)
server=
cleanup() {
    [ -n "$server" ] && kill "$server" 2>/dev/null || true
    rm -rf "$work"
    if declare -F fitcircle_pg_stop >/dev/null; then fitcircle_pg_stop; fi
}
trap cleanup EXIT

fuzz() {
    local backend=$1 database
    case $backend in
        sqlite) database="sqlite://$work/fuzz.sqlite" ;;
        postgres)
            if [ -z "${FITCIRCLE_TEST_DATABASE_URL:-}" ]; then
                source scripts/postgres.sh
                trap cleanup EXIT
            fi
            local schema="fuzz_$$_$RANDOM"
            psql "$FITCIRCLE_TEST_DATABASE_URL" -qc "CREATE SCHEMA $schema" >/dev/null
            case $FITCIRCLE_TEST_DATABASE_URL in *\?*) database="$FITCIRCLE_TEST_DATABASE_URL&schema=$schema" ;; *) database="$FITCIRCLE_TEST_DATABASE_URL?schema=$schema" ;; esac
            ;;
        *) echo "unknown backend $backend (sqlite or postgres)" >&2; exit 2 ;;
    esac
    # A port the kernel says is free, rather than a random guess that may collide.
    local port
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
    # Thousands of requests from one address and user: the limits would answer most of them 429.
    FITCIRCLE_LIMITS_PER_ADDRESS=1000000000 FITCIRCLE_LIMITS_PER_USER=1000000000 FITCIRCLE_LIMITS_SIGN_INS=1000000000 \
        FITCIRCLE_LIMITS_JOINS=1000000000 FITCIRCLE_LIMITS_INVITATIONS=1000000000 FITCIRCLE_LIMITS_REFRESHES=1000000000 \
        .build/debug/fitcircle serve --dev-login --port "$port" --database-url "$database" \
        --profiles-dir profiles --log-level error >"$work/server-$backend.log" 2>&1 &
    server=$!
    for _ in $(seq 300); do
        curl -sf "localhost:$port/healthz" >/dev/null && break
        kill -0 "$server" 2>/dev/null || break
        sleep 0.2
    done
    if ! curl -sf "localhost:$port/healthz" >/dev/null; then
        echo "fitcircle ($backend) did not become healthy on port $port within 60 s; its log:" >&2
        cat "$work/server-$backend.log" >&2
        exit 1
    fi

    local signin token
    signin=$(curl -s -X POST "localhost:$port/api/auth/dev" -H 'Content-Type: application/json' -d '{"email": "fuzz@example.com"}')
    if ! token=$(printf '%s' "$signin" | python3 -c 'import json, sys; print(json.load(sys.stdin)["accessToken"])' 2>/dev/null); then
        echo "dev sign-in failed: $signin; the server's log:" >&2
        cat "$work/server-$backend.log" >&2
        exit 1
    fi
    curl -sf -X PUT "localhost:$port/api/user/profile" -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
        -d '{"displayName": "Fuzz", "age": 30, "weight": {"value": 70, "unit": "kg"}, "timeZone": "UTC"}' >/dev/null
    # XP to stake (a check-in's 10), and a friend for the links that block one.
    curl -sf -X POST "localhost:$port/api/streaks/checkin" -H "Authorization: Bearer $token" -H 'Content-Type: application/json' -d '{"mood": 4, "energy": 3}' >/dev/null
    local friend friend_id fuzz_id
    signin=$(curl -s -X POST "localhost:$port/api/auth/dev" -H 'Content-Type: application/json' -d '{"email": "fuzz-friend@example.com"}')
    friend=$(printf '%s' "$signin" | python3 -c 'import json, sys; print(json.load(sys.stdin)["accessToken"])')
    friend_id=$(printf '%s' "$signin" | python3 -c 'import json, sys; print(json.load(sys.stdin)["user"]["id"])')
    curl -sf -X PUT "localhost:$port/api/user/profile" -H "Authorization: Bearer $friend" -H 'Content-Type: application/json' \
        -d '{"displayName": "Fuzz Friend", "age": 31, "weight": {"value": 60, "unit": "kg"}, "timeZone": "Asia/Tokyo"}' >/dev/null
    fuzz_id=$(curl -sf "localhost:$port/api/user/profile" -H "Authorization: Bearer $token" | python3 -c 'import json, sys; print(json.load(sys.stdin)["id"])')
    curl -sf -X POST "localhost:$port/api/friends/request" -H "Authorization: Bearer $friend" -H 'Content-Type: application/json' -d "{\"userId\": \"$fuzz_id\"}" >/dev/null
    curl -sf -X POST "localhost:$port/api/friends/accept" -H "Authorization: Bearer $token" -H 'Content-Type: application/json' -d "{\"userId\": \"$friend_id\"}" >/dev/null

    echo "== schemathesis against $backend" >&2
    # signOut and deleteAccount are left out: they would end the account the run signs in with; the
    # streams too: a stream stays open for the seconds asked (up to an hour); their own tests cover them,
    # and the social walk opens one.
    # The last pass is stateful again, over the social half's operations alone and with valid data only, so
    # that its sequences reach the links between them (random data rarely makes the challenge or circle a
    # link starts from).
    local social="" op
    for op in createCompetition getCompetition getCompetitionLeaderboard leaveCompetition getPointsLedger getChallengeRecord \
        createFitCircle getFitCircle listFitCircleMembers exportAccount listFriends blockUser getUserProfile getUserBadges getRivalry \
        getFriendFeed removeFitCircleMember getFitCircleLeaderboard getFitCircleFeed listFitCircleBans; do
        social="$social --include-operation-id $op"
    done
    local phase status=0 options
    for phase in examples fuzzing stateful social; do
        if [ "$phase" = social ]; then
            options="$social --phases stateful --mode positive --max-examples 100"
        else
            options="--exclude-operation-id signOut --exclude-operation-id deleteAccount --exclude-operation-id streamNotificationInbox
                --exclude-operation-id streamFitCircle --exclude-operation-id streamFriendFeed --exclude-operation-id streamCompetition
                --phases $phase --max-examples ${FUZZ_EXAMPLES:-40}"
        fi
        echo "-- $phase" >&2
        # The figures of a pass that went well; the whole report of one that did not.
        # shellcheck disable=SC2086 # the options are words
        if schemathesis run "http://127.0.0.1:$port/openapi.yaml" -H "Authorization: Bearer $token" $options \
            --checks not_a_server_error --seed "${FUZZ_SEED:-20261122}" --no-color >"$work/$phase.txt" 2>&1; then
            status=0
            grep -E "API Links|Scenarios|generated" "$work/$phase.txt" >&2 || true
        else
            status=$?
            cat "$work/$phase.txt" >&2
        fi
        # A dead node is the loudest failure there is: said as such, never as a list of refused connections.
        if ! kill -0 "$server" 2>/dev/null || ! curl -sf --max-time 10 "localhost:$port/healthz" >/dev/null; then
            echo "FITCIRCLE DIED during schemathesis's $phase phase on $backend; the server's log ends:" >&2
            tail -n 80 "$work/server-$backend.log" >&2
            exit 1
        fi
        [ "$status" != 0 ] && break
        python3 scripts/fuzz-social-walk.py "$port" || { status=$?; echo "the social walk failed after the $phase phase" >&2; break; }
    done
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
    server=
    if [ "$status" != 0 ]; then
        echo "schemathesis found failures on $backend; the server's log ends:" >&2
        tail -n 50 "$work/server-$backend.log" >&2
        exit "$status"
    fi
}

for backend in ${*:-sqlite postgres}; do fuzz "$backend"; done
