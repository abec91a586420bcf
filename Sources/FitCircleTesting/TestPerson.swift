import FitCircleClient
import FitCircleCore
import FitCircleEngine
import FitCircleStore
import Foundation

/// Someone signed in and onboarded on a `TestApp`: their token and their id, for the typed API (`app.api`).
/// `token` is the one from sign-in; a test that moves the clock past its 15 minutes calls `app.api(as:)`.
public struct TestPerson: Sendable {
    public var email: String
    public var token: String
    public var id: String

    public init(email: String, token: String, id: String) {
        self.email = email
        self.token = token
        self.id = id
    }

    /// A token fresh from dev login, whatever the test clock has done since sign-in.
    public func token(_ app: TestApp) async throws -> String { try await app.devSignIn(self.email).accessToken }
}

extension TestApp {
    /// Signs `email` in through dev login and completes onboarding (`onboardedUser`); their id from the API.
    /// With `xp`, they start with that many points, booked as earned now (a line whose source is `seed`).
    public func person(
        _ email: String,
        timeZone: String = "Europe/Paris",
        displayName: String? = nil,
        xp: Int = 0
    ) async throws -> TestPerson {
        let token = try await self.onboardedUser(email, timeZone: timeZone, displayName: displayName)
        let person = TestPerson(email: email, token: token, id: try await self.api(token).getProfile().ok.body.json.id)
        if xp > 0 { try await self.seed(xp: xp, to: person) }
        return person
    }

    /// Someone whose display name is `name`, at an address made of its letters unless `email` is given.
    public func person(named name: String, email: String? = nil, timeZone: String = "Europe/Paris") async throws
        -> TestPerson
    {
        let email = email ?? "\(name.lowercased().filter(\.isLetter))@example.com"
        return try await self.person(email, timeZone: timeZone, displayName: name)
    }

    /// Makes `one` and `other` friends: a request, then its acceptance.
    public func befriend(_ one: TestPerson, _ other: TestPerson) async throws {
        _ = try await self.api(as: one).requestFriend(body: .json(.init(userId: other.id))).ok
        _ = try await self.api(as: other).acceptFriendRequest(body: .json(.init(userId: one.id))).noContent
    }

    /// The points `person` holds now, from the store.
    public func balance(of person: TestPerson) async throws -> Int {
        try await self.store.read { tx in try await tx.points.stats(of: User.ID(person.id))?.totalPoints ?? 0 }
    }

    private func seed(xp: Int, to person: TestPerson) async throws {
        let now = self.clock.now
        let line = PointsLine(
            id: .init("seed-\(person.id)"),
            date: LocalDate(now, in: .gmt),
            amount: xp,
            reason: .goalMet,
            sourceKey: "seed",
            createdAt: now
        )
        try await self.store.transaction { tx in
            try await tx.points.append([line], of: User.ID(person.id))
            try await tx.points.save(RewardStats(totalPoints: xp, level: 1), of: User.ID(person.id), at: now)
        }
    }
}

extension TestApp {
    /// An onboarded person made an operator (as `fitcircle operator grant` does).
    public func operatorPerson(_ email: String = "ops@example.com") async throws -> TestPerson {
        let person = try await self.person(email)
        _ = try await Operators(store: self.store).set(true, email: email)
        return person
    }
}

extension TestApp {
    /// A token of an operator (`ops@example.com`, onboarded and given the role through the store).
    public func operatorToken() async throws -> String {
        try await self.operatorPerson().token
    }
}
