import FitCircleClient

/// Someone signed in and onboarded on a `TestApp`: their token and their id, for the typed API (`app.api`).
public struct TestPerson: Sendable {
    public var email: String
    public var token: String
    public var id: String
}

extension TestApp {
    /// Signs `email` in through dev login and completes onboarding (`onboardedUser`); their id from the API.
    public func person(_ email: String, timeZone: String = "Europe/Paris") async throws -> TestPerson {
        let token = try await self.onboardedUser(email, timeZone: timeZone)
        return TestPerson(email: email, token: token, id: try await self.api(token).getProfile().ok.body.json.id)
    }

    /// Makes `one` and `other` friends: a request, then its acceptance.
    public func befriend(_ one: TestPerson, _ other: TestPerson) async throws {
        _ = try await self.api(one.token).requestFriend(body: .json(.init(userId: other.id))).ok
        _ = try await self.api(other.token).acceptFriendRequest(body: .json(.init(userId: one.id))).noContent
    }
}
