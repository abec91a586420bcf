public import Foundation

/// A backend's own credential (issue 46): a name, the scopes it may use (`ServiceScope`), and a secret of
/// which only a hash is stored. Made, rotated, listed and revoked with `fitcircle service-key`, never through
/// the API. A rotation gives a new secret and keeps the previous one valid for a grace period, so a backend
/// rolls its key without a gap.
public struct ServiceKey: Equatable, Sendable {
    public typealias ID = Identifier<ServiceKey>

    public var id: ID
    public var name: String
    public var scopes: Set<ServiceScope>
    public var secretHash: String
    /// The secret before the last rotation, valid until `previousValidUntil`.
    public var previousSecretHash: String?
    public var previousValidUntil: Date?
    public var createdAt: Date
    public var rotatedAt: Date?
    public var lastUsedAt: Date?
    public var revokedAt: Date?

    public init(
        id: ID,
        name: String,
        scopes: Set<ServiceScope>,
        secretHash: String,
        previousSecretHash: String? = nil,
        previousValidUntil: Date? = nil,
        createdAt: Date,
        rotatedAt: Date? = nil,
        lastUsedAt: Date? = nil,
        revokedAt: Date? = nil
    ) {
        self.id = id
        self.name = name
        self.scopes = scopes
        self.secretHash = secretHash
        self.previousSecretHash = previousSecretHash
        self.previousValidUntil = previousValidUntil
        self.createdAt = createdAt
        self.rotatedAt = rotatedAt
        self.lastUsedAt = lastUsedAt
        self.revokedAt = revokedAt
    }

    /// Whether a secret of this hash signs in at `now`: the current one, or the previous one in its grace
    /// period; never once the key is revoked. Compared in constant time.
    public func accepts(secretHash hash: String, at now: Date) -> Bool {
        guard self.revokedAt == nil else { return false }
        if ConstantTime.equal(hash, self.secretHash) { return true }
        guard let previous = self.previousSecretHash, let until = self.previousValidUntil, now < until else {
            return false
        }
        return ConstantTime.equal(hash, previous)
    }

    /// A key's name: 1 to 64 characters of one line.
    public static func validatedName(_ name: String) -> String? {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard (1...64).contains(trimmed.count),
            !trimmed.unicodeScalars.contains(where: { [.control, .format].contains($0.properties.generalCategory) })
        else { return nil }
        return trimmed
    }
}

/// A service key as a backend sends it, `Authorization: Bearer fcsk_<key id>_<secret>`: the id finds the
/// key, the secret proves it.
public struct ServiceKeyToken: Equatable, Sendable {
    public static let prefix = "fcsk_"

    public var id: ServiceKey.ID
    public var secret: String

    public init(id: ServiceKey.ID, secret: String) {
        self.id = id
        self.secret = secret
    }

    /// Whether a bearer token is meant as a service key (then it is read as one or refused, never as a
    /// person's access token).
    public static func isServiceKey(_ token: String) -> Bool { token.hasPrefix(Self.prefix) }

    /// Reads `fcsk_<36-character id>_<secret>`; nil for anything else.
    public init?(_ text: String) {
        guard text.hasPrefix(Self.prefix), text.utf8.count <= 200 else { return nil }
        let rest = text.dropFirst(Self.prefix.count)
        guard rest.count > 37 else { return nil }
        let id = ServiceKey.ID(String(rest.prefix(36)))
        let separator = rest.index(rest.startIndex, offsetBy: 36)
        let secret = rest[rest.index(after: separator)...]
        guard rest[separator] == "_", id.isWellFormed,
            secret.unicodeScalars.allSatisfy({
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-"
                    || $0 == "_"
            })
        else { return nil }
        self.init(id: id, secret: String(secret))
    }

    public var text: String { "\(Self.prefix)\(self.id.rawValue)_\(self.secret)" }
}
