import ArgumentParser
import FitCircleCore
import FitCircleEngine
import FitCircleStore
import Foundation

/// `fitcircle service-key make|rotate|revoke|list`: a backend's own credentials (issue 46), scoped to the
/// operator operations it needs, so no service signs in as a person.
struct ServiceKeyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "service-key",
        abstract: "Make, rotate, revoke or list service keys: a backend's credentials for operator operations.",
        discussion: """
            A backend sends its key as `Authorization: Bearer fcsk_…`. Scopes: \(
                ServiceScope.allCases.map { "\($0.rawValue) (\($0.summary))" }.joined(separator: "; ")).
            """,
        subcommands: [Make.self, Rotate.self, Revoke.self, List.self]
    )

    struct Make: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Make a key; its secret is printed once.")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "A name for the key, such as the service that uses it (1 to 64 characters).") var name: String
        @Option(help: "The scopes, comma-separated: \(ServiceScope.allCases.map(\.rawValue).joined(separator: ", ")).")
        var scopes: String

        func run() async throws {
            guard let scopes = ServiceScope.parse(self.scopes) else {
                throw ValidationError(
                    "--scopes must name one or more of \(ServiceScope.allCases.map(\.rawValue).joined(separator: ", "))."
                )
            }
            let issued = try await ServiceKeyCommand.keys(self.options) {
                try await $0.make(name: self.name, scopes: scopes)
            }
            ServiceKeyCommand.show(issued)
        }
    }

    struct Rotate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Give a key a new secret; the previous one works for the grace period."
        )
        @OptionGroup var options: GlobalOptions
        @Argument(help: "The key's id or name.") var key: String
        @Option(help: "Hours the previous secret keeps working (0: it stops at once).") var graceHours: Double = 24

        func run() async throws {
            guard self.graceHours.isFinite, (0...720).contains(self.graceHours) else {
                throw ValidationError("--grace-hours must be 0 to 720.")
            }
            let issued = try await ServiceKeyCommand.keys(self.options) {
                try await $0.rotate(self.key, grace: self.graceHours * 3600)
            }
            ServiceKeyCommand.show(issued)
            if let until = issued.key.previousValidUntil {
                print("The previous secret works until \(until.formatted(.iso8601)).")
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke a key: it stops working at once.")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "The key's id or name.") var key: String

        func run() async throws {
            let key = try await ServiceKeyCommand.keys(self.options) { try await $0.revoke(self.key) }
            print("\(key.name) (\(key.id)) is revoked")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the keys, revoked ones too (never a secret).")
        @OptionGroup var options: GlobalOptions

        func run() async throws {
            let keys = try await ServiceKeyCommand.keys(self.options) { try await $0.list() }
            print(["id", "name", "scopes", "created", "last used", "state"].joined(separator: "\t"))
            for key in keys {
                let state =
                    key.revokedAt.map { "revoked \($0.formatted(.iso8601))" }
                    ?? key.rotatedAt.map { "rotated \($0.formatted(.iso8601))" } ?? "live"
                let fields = [
                    key.id.rawValue, key.name, key.scopes.sorted().map(\.rawValue).joined(separator: ","),
                    key.createdAt.formatted(.iso8601), key.lastUsedAt?.formatted(.iso8601) ?? "never", state,
                ]
                print(fields.joined(separator: "\t"))
            }
            print("\(keys.count) key(s)")
        }
    }

    static func keys<Result: Sendable>(
        _ options: GlobalOptions,
        _ body: @Sendable (ServiceKeys) async throws -> Result
    ) async throws -> Result {
        let runtime = try await Runtime(options: options)
        do {
            return try await runtime.withStore { store in
                try await store.checkSchemaVersion()
                return try await body(ServiceKeys(store: store, clock: .system))
            }
        } catch DomainError.notFound(_, let id) {
            throw ValidationError("No live service key has the id or name \(id).")
        } catch DomainError.conflict(let reason) {
            throw ValidationError(reason)
        } catch let error as FitCircleCore.ValidationError {
            throw ValidationError(error.violations.map { "\($0.field) \($0.reason)." }.joined(separator: " "))
        }
    }

    static func show(_ issued: ServiceKeys.Issued) {
        print(
            "\(issued.key.name) (\(issued.key.id)): \(issued.key.scopes.sorted().map(\.rawValue).joined(separator: ","))"
        )
        print("Secret, shown once; send it as Authorization: Bearer <secret>:")
        print(issued.token)
    }
}
