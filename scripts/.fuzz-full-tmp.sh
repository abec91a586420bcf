#!/usr/bin/env bash
# Schema-driven fuzzing of the running API with schemathesis (PyPI): every operation, valid and invalid
# inputs generated from openapi.yaml, then stateful sequences that follow the document's links (a circle
# created, then read, joined, claimed, its feed and boards), signed in as an onboarded user. Fails if any
# request gets a 5xx.
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
        --profiles-dir profiles --log-level info >"/tmp/fuzz-server-$backend.log" 2>&1 &
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

    echo "== schemathesis against $backend" >&2
    # signOut and deleteAccount are left out: they would end the account the run signs in with; the
    # streams too: a stream stays open for the seconds asked (up to an hour); their own tests cover them.
    schemathesis run "http://127.0.0.1:$port/openapi.yaml" -H "Authorization: Bearer $token" \
        --exclude-operation-id signOut --exclude-operation-id deleteAccount \
        --exclude-operation-id streamNotificationInbox --exclude-operation-id streamFitCircle --exclude-operation-id streamFriendFeed --exclude-operation-id streamCompetition \
        --checks not_a_server_error --phases examples,fuzzing,stateful \
        --max-examples "${FUZZ_EXAMPLES:-40}" --seed "${FUZZ_SEED:-20261122}" --no-color 2>&1 | tail -n 300
    local status=${PIPESTATUS[0]}
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
