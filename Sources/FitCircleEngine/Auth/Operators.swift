public import FitCircleCore
public import FitCircleStore
import Foundation

/// Who runs the server: operators see the console and may send notifications and restate boards. They are
/// named by email with `fitcircle operator grant|revoke`, never through the public API.
public struct Operators: Sendable {
    let store: Store

    public init(store: Store) {
        self.store = store
    }

    /// Gives or takes operator rights from the account with `email` (case-insensitive); the account's
    /// sessions see the change at once on every node (the store's cache is told).
    public func set(_ isOperator: Bool, email: String) async throws -> User {
        let address = email.trimmingCharacters(in: .whitespaces).lowercased()
        return try await self.store.transaction { tx in
            guard var user = try await tx.user(withEmail: address) else { throw DomainError.notFound(resource: "account with email", id: address) }
            user.role = isOperator ? .operator : .member
            try await tx.setRole(user.role, of: user.id)
            return user
        }
    }

    /// The operators' accounts.
    public func list() async throws -> [User] {
        try await self.store.read { tx in try await tx.users(withRole: .operator) }
    }

    /// Lets `caller` on only if they are an operator now (the console's pages ask before they are served).
    public func admit(_ caller: Caller, to action: String) async throws {
        try await self.store.read { tx in try await Self.require(caller, in: tx, to: action) }
    }

    /// Lets `caller` on only if they are an operator now (read in `tx`, so a revocation holds at once).
    static func require(_ caller: Caller, in tx: Transaction, to action: String) async throws {
        let account = try await tx.user(caller.userID)
        try OperatorAccess.decide(isOperator: account?.role == .operator, to: action).require("user", caller.userID.rawValue)
    }
}
