import ArgumentParser
import FitCircleCore
import FitCircleEngine
import FitCircleJobs
import FitCircleServer
import FitCircleStore
import Foundation
import Hummingbird
import Logging

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the HTTP server (the default command).")

    @OptionGroup var options: GlobalOptions

    @Flag(
        help:
            "Seed demo accounts (ana@, ben@, chloe@demo.fitcircle.dev) with three weeks of activity when they do not exist yet; implies --dev-login."
    )
    var demo = false

    func run() async throws {
        var options = self.options
        if self.demo { options.devLogin = true }
        let runtime = try await Runtime(options: options)
        let configuration = runtime.configuration
        if configuration.auth.configuration.devLogin {
            runtime.logger.warning(
                "Dev login is ON: anyone can sign in as any email address with POST /api/auth/dev. Never on a server others can reach.",
                metadata: ["fitcircle.host": "\(configuration.node.host)"]
            )
        }
        try await runtime.withStore { store in
            try await store.migrate(now: runtime.clock.now()) { [logger = runtime.logger] in logger.info("\($0)") }
            let node = try await FitCircleNode(configuration: configuration, store: store, clock: runtime.clock)
            if !node.transports.missing.isEmpty {
                runtime.logger.notice(
                    "Delivery channels off (not configured)",
                    metadata: ["fitcircle.delivery.off": "\(node.transports.missing)"]
                )
            }
            if self.demo, try await DemoData.seed(node.engine, now: runtime.clock.now()) {
                runtime.logger.info(
                    "Seeded the demo accounts",
                    metadata: ["fitcircle.demo": "\(DemoData.accounts.map(\.email))"]
                )
            }
            let app = try buildApplication(
                node: node,
                logger: runtime.logger,
                onServerRunning: { _ in
                    runtime.logger.info(
                        "FitCircle is listening",
                        metadata: [
                            "fitcircle.address": "http://\(configuration.node.host):\(configuration.node.port)",
                            "fitcircle.database": "\(store.location)",
                            "fitcircle.profile": "\(node.engine.profile.name)",
                            "fitcircle.devLogin": "\(configuration.auth.configuration.devLogin)",
                        ]
                    )
                }
            )
            // Stops on SIGTERM or SIGINT: no new connections, in-flight requests finish, then the jobs and the
            // scheduler stop (docs/architecture.md, Jobs) and the store closes.
            try await app.runService()
        }
    }
}
