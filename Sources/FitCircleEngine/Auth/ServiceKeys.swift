public import FitCircleCore
public import FitCircleStore
public import Foundation

/// Backends' own credentials (issue 46): made, rotated, listed and revoked by an operator with
/// `fitcircle service-key`, never through the API, and checked on every request that carries one. A key is
/// read from the database at each request, so a revocation holds at once on every node.
public struct ServiceKeys: Sendable {
    let store: Store
    let clock: WallClock
    let ids: IDGenerator

    public init(store: Store, clock: WallClock) {
        self.store = store
        self.clock = clock
        self.ids = IDGenerator(clock: clock)
    }

    /// A key and the token that carries its secret, shown once: only its hash is kept.
    public struct Issued: Sendable {
        public var key: ServiceKey
        public var token: String
    }

    /// Makes a key named `name` (1 to 64 characters, not the name of another live key) with `scopes`.
    public func make(name: String, scopes: Set<ServiceScope>) async throws -> Issued {
        guard let name = ServiceKey.validatedName(name) else {
            throw ValidationError(field: "name", reason: "must be 1 to 64 characters on one line")
        }
        guard !scopes.isEmpty else { throw ValidationError(field: "scopes", reason: "must name at least one scope") }
        let token = ServiceKeyToken(id: self.ids.make(), secret: Secrets.random())
        let key = ServiceKey(
            id: token.id,
            name: name,
            scopes: scopes,
            secretHash: Accounts.hash(token.secret),
            createdAt: self.clock.now()
        )
        guard try await self.store.transaction({ tx in try await tx.serviceKeys.insert(key) }) else {
            throw DomainError.conflict(reason: "A live key is already named \(name).")
        }
        return Issued(key: key, token: token.text)
    }

    /// A new secret for the live key with this id or name; the previous one keeps working for `grace`.
    public func rotate(_ idOrName: String, grace: TimeInterval) async throws -> Issued {
        let now = self.clock.now()
        let secret = Secrets.random()
        let key = try await self.store.transaction { tx in
            let key = try await Self.live(idOrName, in: tx)
            try await tx.serviceKeys.rotate(
                key.id,
                to: Accounts.hash(secret),
                previousValidUntil: now.addingTimeInterval(max(0, grace)),
                at: now
            )
            return try await tx.serviceKeys.find(key.id) ?? key
        }
        return Issued(key: key, token: ServiceKeyToken(id: key.id, secret: secret).text)
    }

    /// Revokes the live key with this id or name: its secrets stop working at once.
    public func revoke(_ idOrName: String) async throws -> ServiceKey {
        let now = self.clock.now()
        return try await self.store.transaction { tx in
            let key = try await Self.live(idOrName, in: tx)
            try await tx.serviceKeys.revoke(key.id, at: now)
            return try await tx.serviceKeys.find(key.id) ?? key
        }
    }

    /// Every key, revoked ones too, oldest first.
    public func list() async throws -> [ServiceKey] {
        try await self.store.read { tx in try await tx.serviceKeys.all() }
    }

    /// The caller a bearer token that is a service key makes: its key live and its secret the current one
    /// (or the previous one in its grace period).
    public func authenticate(_ text: String) async throws -> Caller {
        let now = self.clock.now()
        guard let token = ServiceKeyToken(text),
            let key = try await self.store.read({ tx in try await tx.serviceKeys.find(token.id) }),
            key.accepts(secretHash: Accounts.hash(token.secret), at: now)
        else {
            throw DomainError.unauthenticated(reason: "The service key is not valid, or was revoked.")
        }
        if key.lastUsedAt.map({ now.timeIntervalSince($0) >= 60 }) ?? true {
            try await self.store.transaction { tx in try await tx.serviceKeys.noteUse(key.id, at: now) }
        }
        return Caller(service: key)
    }

    private static func live(_ idOrName: String, in tx: Transaction) async throws -> ServiceKey {
        let named = idOrName.trimmingCharacters(in: .whitespaces)
        var found = ServiceKey.ID(named).isWellFormed ? try await tx.serviceKeys.find(ServiceKey.ID(named)) : nil
        if found == nil { found = try await tx.serviceKeys.find(named: named) }
        guard let key = found, key.revokedAt == nil else {
            throw DomainError.notFound(resource: "live service key", id: named)
        }
        return key
    }
}
