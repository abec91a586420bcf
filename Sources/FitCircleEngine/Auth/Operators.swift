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

    /// Gives or takes operator rights from the account with `email` (case-insensitive) or with that id; the
    /// account's sessions see the change at once on every node (the store's cache is told).
    public func set(_ isOperator: Bool, email: String) async throws -> User {
        let address = email.trimmingCharacters(in: .whitespaces).lowercased()
        return try await self.store.transaction { tx in
            // An account id names one account; an address names the one account that has it. A database from
            // before sign-ins joined accounts by address may have several: then the id decides, never a guess.
            let found: [User]
            if address.contains("@") {
                found = try await tx.users.all(withEmail: address)
            } else {
                found = try await tx.users.find(User.ID(email.trimmingCharacters(in: .whitespaces))).map { [$0] } ?? []
            }
            guard var user = found.first else {
                throw DomainError.notFound(resource: "account with email", id: address)
            }
            guard found.count == 1 else {
                throw DomainError.conflict(
                    reason:
                        "\(found.count) accounts have the address \(address): \(found.map(\.id.rawValue).joined(separator: ", ")). Name one by its id."
                )
            }
            user.role = isOperator ? .operator : .member
            try await tx.users.setRole(user.role, of: user.id)
            return user
        }
    }

    /// The operators' accounts.
    public func list() async throws -> [User] {
        try await self.store.read { tx in try await tx.users.all(withRole: .operator) }
    }

    /// Lets `caller` on only if they are an operator now (the console's pages ask before they are served).
    public func admit(_ caller: Caller, to action: String) async throws {
        try await self.store.read { tx in try await Self.require(caller, in: tx, to: action, scope: .console) }
    }

    /// Lets `caller` on only if they are an operator now (read in `tx`, so a revocation holds at once), or a
    /// service key with `scope` (read at this request).
    static func require(_ caller: Caller, in tx: Transaction, to action: String, scope: ServiceScope) async throws {
        if let key = caller.service {
            try OperatorAccess.decide(service: key.scopes, needs: scope, to: action).require(
                "service key",
                key.id.rawValue
            )
            return
        }
        let account = try await tx.users.find(caller.userID)
        try OperatorAccess.decide(isOperator: account?.role == .operator, to: action).require(
            "user",
            caller.userID.rawValue
        )
    }
}
