public import FitCircleCore
public import Foundation
import SQLKit

extension Transaction {
    /// The queries of accounts: people, their sign-in links, profiles and roles (`users`, `identities`).
    public var users: UserQueries { UserQueries(tx: self) }
}

public struct UserQueries: Sendable {
    let tx: Transaction

    private var sql: any SQLDatabase { self.tx.sql }
    private var dialect: Store.Dialect { self.tx.dialect }

    /// The account with this id.
    public func find(_ id: User.ID) async throws -> User? {
        try await self.sql.raw("SELECT * FROM users WHERE id = \(bind: id.rawValue)").first().map(
            Transaction.user(from:)
        )
    }

    /// The account with this id, locked for the rest of the transaction (see `lockUser`).
    public func locked(_ id: User.ID) async throws -> User? {
        let lock = self.dialect == .postgres ? " FOR UPDATE" : ""
        return try await self.sql.raw("SELECT * FROM users WHERE id = \(bind: id.rawValue)\(unsafeRaw: lock)").first()
            .map(Transaction.user(from:))
    }

    /// These accounts, each locked for the rest of the transaction, in id order so that two transactions
    /// locking overlapping sets cannot deadlock.
    public func locked(_ ids: some Collection<User.ID>) async throws -> [User.ID: User] {
        try await self.all(ids, locked: true)
    }

    /// These accounts (those that exist), not locked.
    public func all(_ ids: some Collection<User.ID>) async throws -> [User.ID: User] {
        try await self.all(ids, locked: false)
    }

    private func all(_ ids: some Collection<User.ID>, locked: Bool) async throws -> [User.ID: User] {
        guard !ids.isEmpty else { return [:] }
        let lock = locked && self.dialect == .postgres ? " FOR UPDATE" : ""
        var users: [User.ID: User] = [:]
        // In id order across the parts too, so that locks are still taken in one order.
        for part in Set(ids).sorted().chunks(of: 1_000) {
            let binds = part.map { $0.rawValue as any Encodable & Sendable }
            for row in try await self.sql.raw(
                "SELECT * FROM users WHERE id IN (\(binds: binds)) ORDER BY id\(unsafeRaw: lock)"
            ).all() {
                let user = try Transaction.user(from: row)
                users[user.id] = user
            }
        }
        return users
    }

    /// The account with this email address (stored lowercased), if any.
    public func find(withEmail email: String) async throws -> User? {
        try await self.sql.raw(
            "SELECT * FROM users WHERE email = \(bind: email.lowercased()) ORDER BY created_at LIMIT 1"
        ).first().map(Transaction.user(from:))
    }

    /// Every account with this address, oldest first (sign-ins link to the one account an address has, but
    /// a database from before that may hold several).
    public func all(withEmail email: String) async throws -> [User] {
        try await self.sql.raw(
            "SELECT * FROM users WHERE email = \(bind: email.lowercased()) ORDER BY created_at, id LIMIT 100"
        ).all().map(Transaction.user(from:))
    }

    /// Lets a provider's subject sign in as an existing account.
    public func link(_ user: User.ID, provider: String, subject: String, email: String, at now: Date) async throws {
        try await self.sql.raw(
            """
            INSERT INTO identities (provider, subject, user_id, email, created_at)
            VALUES (\(bind: provider), \(bind: subject), \(bind: user.rawValue), \(bind: email), \(bind: now))
            """
        ).run()
    }

    /// The accounts with `role`, oldest first.
    public func all(withRole role: User.Role) async throws -> [User] {
        try await self.sql.raw(
            "SELECT * FROM users WHERE role = \(bind: role.rawValue) ORDER BY created_at, id LIMIT 1000"
        ).all().map(Transaction.user(from:))
    }

    /// The account a provider's subject signed in as before.
    public func find(provider: String, subject: String) async throws -> User? {
        try await self.sql.raw(
            """
            SELECT users.* FROM identities JOIN users ON users.id = identities.user_id
            WHERE identities.provider = \(bind: provider) AND identities.subject = \(bind: subject)
            """
        ).first().map(Transaction.user(from:))
    }

    /// Creates an account and the identity it signed in with.
    public func insert(_ user: User, provider: String, subject: String) async throws {
        let profile = user.profile
        try await self.sql.raw(
            """
            INSERT INTO users (id, email, role, display_name, age, weight_kg, weight_unit, height_cm, height_unit,
                gender, activity_baseline, time_zone, visibility_age, visibility_weight, visibility_height, visibility_photo,
                visibility_board_name, photo_key, onboarded_at, disabled_at, created_at, updated_at)
            VALUES (\(bind: user.id.rawValue), \(bind: user.email), \(bind: user.role.rawValue),
                \(bind: profile.displayName), \(bind: profile.age), \(bind: profile.weightKg),
                \(bind: profile.weightUnit.rawValue), \(bind: profile.heightCm), \(bind: profile.heightUnit.rawValue),
                \(bind: profile.gender?.rawValue), \(bind: profile.activityBaseline?.rawValue), \(bind: profile.timeZone),
                \(bind: profile.visibility.age.rawValue),
                \(bind: profile.visibility.weight.rawValue), \(bind: profile.visibility.height.rawValue),
                \(bind: profile.visibility.photo.rawValue), \(bind: profile.visibility.boardName.rawValue),
                \(bind: profile.photoKey), \(bind: profile.onboardedAt), \(bind: user.disabledAt),
                \(bind: user.createdAt), \(bind: user.createdAt))
            """
        ).run()
        try await self.sql.raw(
            """
            INSERT INTO identities (provider, subject, user_id, email, created_at)
            VALUES (\(bind: provider), \(bind: subject), \(bind: user.id.rawValue), \(bind: user.email), \(bind: user.createdAt))
            """
        ).run()
        try await self.tx.search.indexName(of: user.id, profile.displayName)
    }

    /// Replaces the stored profile of `user`.
    public func save(_ profile: UserProfile, of user: User.ID, at now: Date) async throws {
        try await self.sql.raw(
            """
            UPDATE users SET display_name = \(bind: profile.displayName), age = \(bind: profile.age),
                weight_kg = \(bind: profile.weightKg), weight_unit = \(bind: profile.weightUnit.rawValue),
                height_cm = \(bind: profile.heightCm), height_unit = \(bind: profile.heightUnit.rawValue),
                gender = \(bind: profile.gender?.rawValue), activity_baseline = \(bind: profile.activityBaseline?.rawValue),
                time_zone = \(bind: profile.timeZone),
                visibility_age = \(bind: profile.visibility.age.rawValue),
                visibility_weight = \(bind: profile.visibility.weight.rawValue),
                visibility_height = \(bind: profile.visibility.height.rawValue),
                visibility_photo = \(bind: profile.visibility.photo.rawValue),
                visibility_board_name = \(bind: profile.visibility.boardName.rawValue),
                photo_key = \(bind: profile.photoKey), onboarded_at = \(bind: profile.onboardedAt),
                updated_at = \(bind: now)
            WHERE id = \(bind: user.rawValue)
            """
        ).run()
        try await self.tx.search.indexName(of: user, profile.displayName)
        try await self.tx.changed(.user(user))
    }

    /// Grants or withdraws operator rights.
    public func setRole(_ role: User.Role, of user: User.ID) async throws {
        try await self.sql.raw("UPDATE users SET role = \(bind: role.rawValue) WHERE id = \(bind: user.rawValue)").run()
        try await self.tx.changed(.user(user))
    }

    /// Dates an account's creation back (the demo's accounts, seeded with weeks of history, are as old as it).
    public func backdate(_ user: User.ID, createdAt: Date) async throws {
        try await self.sql.raw("UPDATE users SET created_at = \(bind: createdAt) WHERE id = \(bind: user.rawValue)")
            .run()
        try await self.tx.changed(.user(user))
    }

    /// Disables an account (its tokens stop working) or, with `nil`, enables it again.
    public func setDisabled(_ disabledAt: Date?, of user: User.ID) async throws {
        try await self.sql.raw("UPDATE users SET disabled_at = \(bind: disabledAt) WHERE id = \(bind: user.rawValue)")
            .run()
        // Out of people search while disabled (its entries say so), back when enabled; its terms are unchanged.
        try await self.sql.raw(
            "UPDATE user_search_terms SET disabled = \(bind: disabledAt != nil) WHERE user_id = \(bind: user.rawValue)"
        ).run()
        try await self.tx.changed(.user(user))
    }

}

extension UserQueries {
}

/// Row decoding every namespace may use.
extension Transaction {
    static func user(from row: any SQLRow) throws -> User {
        func decode<T: Decodable>(_ column: String, as _: T.Type = T.self) throws -> T {
            try row.decode(column: column, as: T.self)
        }
        func enumeration<T: RawRepresentable>(_ column: String, as _: T.Type = T.self) throws -> T
        where T.RawValue == String {
            let raw: String = try decode(column)
            guard let value = T(rawValue: raw) else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: [], debugDescription: "users.\(column) holds '\(raw)'")
                )
            }
            return value
        }
        let profile = UserProfile(
            displayName: try decode("display_name"),
            age: try decode("age"),
            weightKg: try decode("weight_kg"),
            weightUnit: try enumeration("weight_unit"),
            heightCm: try decode("height_cm"),
            heightUnit: try enumeration("height_unit"),
            gender: try (decode("gender", as: String?.self)).flatMap(Gender.init(rawValue:)),
            activityBaseline: try (decode("activity_baseline", as: String?.self)).flatMap(
                ActivityBaseline.init(rawValue:)
            ),
            timeZone: try decode("time_zone"),
            visibility: FieldVisibility(
                age: try enumeration("visibility_age"),
                weight: try enumeration("visibility_weight"),
                height: try enumeration("visibility_height"),
                photo: try enumeration("visibility_photo"),
                boardName: try enumeration("visibility_board_name")
            ),
            photoKey: try decode("photo_key"),
            onboardedAt: try decode("onboarded_at")
        )
        return User(
            id: User.ID(try decode("id")),
            email: try decode("email"),
            role: try enumeration("role"),
            profile: profile,
            createdAt: try decode("created_at"),
            disabledAt: try decode("disabled_at")
        )
    }

    /// A person's photo as a list reads it: the key and its audience (`u.photo_key`, `u.visibility_photo`
    /// unless named otherwise).
    static func photo(_ row: any SQLRow, key: String = "photo_key", audience: String = "visibility_photo") throws
        -> PersonPhoto?
    {
        guard let stored = try row.decode(column: key, as: String?.self) else { return nil }
        return PersonPhoto(
            key: stored,
            audience: Audience(rawValue: try row.decode(column: audience, as: String.self)) ?? .onlyMe
        )
    }
}
