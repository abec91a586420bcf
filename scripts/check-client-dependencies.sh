#!/usr/bin/env bash
# What SwiftPM fetches for an app that adds this package for the SDK: an app package is made beside a clone
# of the committed tree, depends on its FitCircleClient product, and resolves. Fails if anything beyond the
# SDK's own dependencies (the OpenAPI runtime, the URLSession transport and what they use) is fetched.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

git clone -q . "$work/fitcircle"
git -C "$work/fitcircle" tag 99.0.0
mkdir -p "$work/app/Sources/App"
cat > "$work/app/Package.swift" <<SWIFT
// swift-tools-version: 6.1
import PackageDescription
let package = Package(
    name: "App",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [.package(url: "file://$work/fitcircle", from: "99.0.0")],
    targets: [.executableTarget(name: "App", dependencies: [.product(name: "FitCircleClient", package: "fitcircle")])]
)
SWIFT
echo 'import FitCircleClient' > "$work/app/Sources/App/main.swift"
swift package --package-path "$work/app" resolve >/dev/null 2>&1 || swift package --package-path "$work/app" resolve

fetched=$(ls "$work/app/.build/checkouts" | sort | tr '\n' ' ')
expected="fitcircle swift-collections swift-http-types swift-openapi-runtime swift-openapi-urlsession "
echo "An app that depends on FitCircleClient fetches: $fetched"
if [ "$fetched" != "$expected" ]; then
    echo "Expected only: $expected" >&2
    exit 1
fi
