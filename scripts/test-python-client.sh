#!/usr/bin/env bash
# Generates a Python client from openapi.yaml with a third-party generator (openapi-python-client, from PyPI)
# and runs the daily loop with it against a live server on SQLite (scripts/python-client/flow.py). What the
# generator cannot read is a defect of the document: it fails the run, like the flow's own checks.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v openapi-python-client >/dev/null || pip install -q "openapi-python-client==0.29.*"
work=$(mktemp -d)
server=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$work"' EXIT

openapi-python-client generate --path Sources/FitCircleAPI/openapi.yaml --meta none \
    --config scripts/python-client/config.yaml --output-path "$work/fitcircle_client" > "$work/generate.log" 2>&1 \
    || { cat "$work/generate.log" >&2; exit 1; }
if grep -E "^WARNING|Unsupported|Cannot parse" "$work/generate.log" >&2; then
    echo "openapi-python-client could not read all of openapi.yaml (above)." >&2
    exit 1
fi

[ -x .build/debug/fitcircle ] || swift build --product fitcircle >&2
port=$((20000 + RANDOM % 10000))
.build/debug/fitcircle serve --dev-login --port "$port" --database-url "sqlite://$work/flow.sqlite" \
    --profiles-dir profiles --log-level error &
server=$!
for _ in $(seq 100); do
    curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break
    sleep 0.1
done
python3 scripts/python-client/flow.py "$work" "http://127.0.0.1:$port"
