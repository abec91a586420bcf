// swift-tools-version: 6.1
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "fitcircle",
    // The server runs on Linux and macOS; the SDK (FitCircleClient) and the rules (FitCircleCore) on Apple's
    // devices too.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    // What an app can depend on. The server is no product, so an app that adds this package fetches only
    // what these two need (scripts/check-client-dependencies.sh); `swift run fitcircle` still runs it.
    products: [
        .library(name: "FitCircleClient", targets: ["FitCircleClient"]),
        .library(name: "FitCircleCore", targets: ["FitCircleCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.0"),
        .package(url: "https://github.com/hummingbird-project/swift-openapi-hummingbird.git", from: "2.1.0"),
        .package(url: "https://github.com/apple/swift-openapi-generator.git", from: "1.14.0"),
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.0"),
        // The SDK's transport, and the HTTP types its middlewares speak.
        .package(url: "https://github.com/apple/swift-openapi-urlsession.git", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/vapor/sql-kit.git", from: "3.36.0"),
        .package(url: "https://github.com/vapor/sqlite-kit.git", from: "4.5.0"),
        .package(url: "https://github.com/vapor/postgres-kit.git", from: "2.17.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.0"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.7.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-configuration.git", from: "1.4.0", traits: ["JSON"]),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-system.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.0"..<"5.0.0"),
        // Already built for async-http-client and jwt-kit; named here for SMTP and the tests' fake providers.
        .package(url: "https://github.com/apple/swift-nio-http2.git", from: "1.46.0"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.0"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.0"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.0"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.0"),
        // Markdown of the OpenAPI document's descriptions on /docs.
        .package(url: "https://github.com/JohnSundell/Ink.git", from: "0.6.0"),
    ],
    targets: [
        .target(
            name: "FitCircleCore",
            swiftSettings: swiftSettings
        ),
        // The Swift SDK: the generated client (scripts/generate-client.sh), sessions, the offline outbox and
        // its sync. Nothing of the server's.
        .target(
            name: "FitCircleClient",
            dependencies: [
                "FitCircleCore",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "fitcircle-example",
            dependencies: ["FitCircleClient"],
            path: "Examples/CommandLine",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "FitCircleStore",
            dependencies: [
                "FitCircleCore",
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                // The S3-compatible blob store: HTTP, and SigV4's hashes and HMACs.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                // Each module reads its own settings (`Store.Settings`, `BlobStoreSetting`).
                .product(name: "Configuration", package: "swift-configuration"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "FitCircleJobs",
            dependencies: [
                "FitCircleCore",
                "FitCircleStore",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "FitCircleDelivery",
            dependencies: [
                "FitCircleCore",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOExtras", package: "swift-nio-extras"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "FitCircleEngine",
            dependencies: [
                "FitCircleCore",
                "FitCircleStore",
                "FitCircleJobs",
                "FitCircleDelivery",
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Configuration", package: "swift-configuration"),
            ],
            resources: [.copy("Emails/Templates")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "FitCircleAPI",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ],
            resources: [.copy("openapi.yaml")],
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
        .target(
            name: "FitCircleServer",
            dependencies: [
                "FitCircleAPI",
                "FitCircleEngine",
                "FitCircleDelivery",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                "FitCircleStore",
                "FitCircleCore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "Ink", package: "Ink"),
            ],
            resources: [.copy("Web/Assets")],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "fitcircle",
            dependencies: [
                "FitCircleServer",
                "FitCircleEngine",
                "FitCircleJobs",
                "FitCircleStore",
                "FitCircleCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "IngestBenchmark",
            dependencies: [
                "FitCircleServer",
                "FitCircleEngine",
                "FitCircleStore",
                "FitCircleCore",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/IngestBenchmark"
        ),
        .executableTarget(
            name: "BoardBenchmark",
            dependencies: ["FitCircleStore", "FitCircleCore", .product(name: "Logging", package: "swift-log")],
            path: "Benchmarks/BoardBenchmark"
        ),
        .executableTarget(
            name: "ChallengeBenchmark",
            dependencies: ["FitCircleEngine", "FitCircleJobs", "FitCircleStore", "FitCircleCore", .product(name: "Logging", package: "swift-log")],
            path: "Benchmarks/ChallengeBenchmark"
        ),
        .executableTarget(
            name: "MetricsBenchmark",
            dependencies: ["FitCircleEngine", "FitCircleStore", "FitCircleCore", .product(name: "Logging", package: "swift-log")],
            path: "Benchmarks/MetricsBenchmark"
        ),
        .executableTarget(
            name: "APNsBenchmark",
            dependencies: ["FitCircleTesting", "FitCircleDelivery", "FitCircleCore", .product(name: "NIOCore", package: "swift-nio")],
            path: "Benchmarks/APNsBenchmark"
        ),
        .executableTarget(
            name: "OutboxBenchmark",
            dependencies: ["FitCircleClient"],
            path: "Benchmarks/OutboxBenchmark"
        ),
        .executableTarget(
            name: "PlanningBenchmark",
            dependencies: [
                "FitCircleServer", "FitCircleEngine", "FitCircleStore", "FitCircleCore",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/PlanningBenchmark"
        ),
        .target(
            name: "FitCircleTesting",
            dependencies: [
                "FitCircleCore",
                "FitCircleStore",
                "FitCircleEngine",
                "FitCircleJobs",
                "FitCircleDelivery",
                "FitCircleServer",
                // The generated client, through the in-process transport: tests that read like the API.
                "FitCircleClient",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "FitCircleCoreTests",
            dependencies: ["FitCircleCore", "FitCircleTesting"]
        ),
        .testTarget(
            name: "FitCircleClientTests",
            dependencies: [
                "FitCircleClient", "FitCircleCore", "FitCircleStore", "FitCircleTesting",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        // The use cases that need no HTTP, on a temporary store with the test clock (`withTestEngine`).
        .testTarget(
            name: "FitCircleEngineTests",
            dependencies: ["FitCircleEngine", "FitCircleJobs", "FitCircleStore", "FitCircleCore", "FitCircleTesting"]
        ),
        .testTarget(
            name: "FitCircleStoreTests",
            dependencies: ["FitCircleStore", "FitCircleCore", "FitCircleTesting"]
        ),
        // The spec documents' own stories and tables, replayed through the HTTP API with the clock moved.
        .testTarget(
            name: "AcceptanceTests",
            dependencies: [
                "FitCircleAPI", "FitCircleCore", "FitCircleEngine", "FitCircleJobs", "FitCircleStore", "FitCircleTesting",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "FitCircleServerTests",
            dependencies: [
                "FitCircleServer",
                "FitCircleEngine",
                "FitCircleJobs",
                "FitCircleCore",
                "FitCircleAPI",
                "FitCircleTesting",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
    ]
)
