#!/usr/bin/env bash
# Regenerates the Swift SDK's client (Sources/FitCircleClient/Generated) from the OpenAPI document, with the
# generator the server's build already has. With --check, changes nothing and fails if the committed client
# is not what the document generates: run by scripts/test.sh, so the two never drift.
set -euo pipefail
cd "$(dirname "$0")/.."
document=Sources/FitCircleAPI/openapi.yaml
target=Sources/FitCircleClient/Generated

bin="$(swift build --show-bin-path)"
tool="$bin/swift-openapi-generator-tool"  # what the server target's build plugin runs
if [ ! -x "$tool" ]; then
    swift build --target FitCircleAPI >&2
fi

output="$target"
if [ "${1:-}" = "--check" ]; then
    output="$(mktemp -d)"
    trap 'rm -rf "$output"' EXIT
else
    rm -rf "$target" && mkdir -p "$target"
fi
# The generator reports its settings on standard error: shown only when it fails.
if ! report=$("$tool" generate "$document" --config scripts/openapi-client-config.yaml --output-directory "$output" 2>&1); then
    echo "$report" >&2
    exit 1
fi

if [ "${1:-}" = "--check" ]; then
    if ! diff -r -q "$target" "$output" >&2; then
        echo "The SDK's generated client is out of date: run scripts/generate-client.sh and commit it." >&2
        exit 1
    fi
    echo "The SDK's generated client matches $document."
fi
