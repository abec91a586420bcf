import ArgumentParser
import FitCircleCore
import FitCircleEngine
import FitCircleServer
import FitCircleStore

/// `fitcircle operator grant|revoke <email or account id>` and `fitcircle operator list`: operator rights.
struct OperatorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "operator",
        abstract: "Grant, revoke or list operator rights (the console, operator-only operations).",
        subcommands: [Grant.self, Revoke.self, List.self]
    )

    struct Grant: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make the account with this email (or this id) an operator."
        )
        @OptionGroup var options: GlobalOptions
        @Argument(help: "The account's email address, or its id when several accounts share the address.") var email:
            String

        func run() async throws {
            let user = try await OperatorCommand.set(true, email: self.email, options: self.options)
            print("\(user.email) (\(user.id)) is an operator")
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Take operator rights from the account with this email (or this id)."
        )
        @OptionGroup var options: GlobalOptions
        @Argument(help: "The account's email address, or its id when several accounts share the address.") var email:
            String

        func run() async throws {
            let user = try await OperatorCommand.set(false, email: self.email, options: self.options)
            print("\(user.email) (\(user.id)) is no longer an operator")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the operators.")
        @OptionGroup var options: GlobalOptions

        func run() async throws {
            let runtime = try await Runtime(options: self.options)
            let operators = try await runtime.withStore { store in
                try await store.checkSchemaVersion()
                return try await Operators(store: store).list()
            }
            for user in operators { print("\(user.email)\t\(user.id)") }
            print("\(operators.count) operator(s)")
        }
    }

    static func set(_ isOperator: Bool, email: String, options: GlobalOptions) async throws -> User {
        let runtime = try await Runtime(options: options)
        do {
            return try await runtime.withStore { store in
                try await store.checkSchemaVersion()
                return try await Operators(store: store).set(isOperator, email: email)
            }
        } catch DomainError.notFound {
            throw ValidationError(
                "No account has the email address (or id) \(email); the person must sign in once first."
            )
        } catch DomainError.conflict(let reason) {
            throw ValidationError(reason)
        }
    }
}
