#!/usr/bin/env bash
# The document checked as a whole (seconds): valid OpenAPI 3.1, and every example fits its schema
# (scripts/openapi/lint.py). The rules of the contract itself are OpenAPILintTests, in the suite.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -c "import jsonschema, openapi_spec_validator, yaml" 2>/dev/null \
    || pip install -q jsonschema openapi-spec-validator pyyaml
python3 scripts/openapi/lint.py Sources/FitCircleAPI/openapi.yaml
