#!/usr/bin/env bash
# Gives every JSON body of openapi.yaml that has none a real example: runs the suite on SQLite with each
# request and answer recorded (FITCIRCLE_RECORD_EXCHANGES), then scripts/openapi/record_examples.py picks,
# for each body, the richest recorded one that fits its schema. Examples already written are kept; read the
# new ones before committing them (a test's own names are avoided, not always). About 6 minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -c "import jsonschema, yaml" 2>/dev/null || pip install -q jsonschema pyyaml
exchanges=$(mktemp)
trap 'rm -f "$exchanges"' EXIT
swift build --build-tests
FITCIRCLE_TEST_DATABASE_URL='' FITCIRCLE_RECORD_EXCHANGES="$exchanges" \
    swift test --skip-build --disable-xctest --skip Spec000PopulationTests >/dev/null || true
echo "$(wc -l < "$exchanges") exchanges recorded" >&2
python3 scripts/openapi/record_examples.py "$exchanges" Sources/FitCircleAPI/openapi.yaml
bash scripts/lint-openapi.sh
