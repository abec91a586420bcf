public import FitCircleClient
import HTTPTypes
public import HummingbirdTesting

extension TestApp {
    /// Posts `{"userId": other.id}` to `path` as `person`: a friend request, an answer to one or a block
    /// (`/api/friends/request`, `/accept`, `/decline`, `/blocks`), with the answer as it came.
    public func friendAction(_ path: String, by person: TestPerson, to other: TestPerson) async throws -> TestResponse {
        try await self.request(.post, path, token: try await person.token(self), json: ["userId": other.id])
    }

    /// The ids of `person`'s friends, from `GET /api/friends`.
    public func friendIDs(of person: TestPerson) async throws -> [String] {
        try await self.api(as: person).listFriends().ok.body.json.items.map(\.userId)
    }

    /// The bodies in `person`'s in-app inbox, after running the jobs that decide raised notifications.
    public func inboxBodies(of person: TestPerson) async throws -> [String] {
        try await self.runJobs()
        return try await self.api(as: person).getNotificationInbox().ok.body.json.items.map(\.body)
    }

    /// `person`'s friends' feed (`GET /api/feed` with `query`), after the jobs that fan workouts out.
    public func friendFeed(of person: TestPerson, query: String = "", afterJobs: Bool = true) async throws
        -> Components.Schemas.FriendFeedPage
    {
        if afterJobs { try await self.runJobs() }
        let response = try await self.request(.get, "/api/feed\(query)", token: try await person.token(self))
        guard response.status == .ok else {
            throw TestSetupError("the feed answered \(response.status): \(response.text)")
        }
        return try response.decoded()
    }
}

extension Components.Schemas.FriendFeedPage {
    /// The activities on the page, in order.
    public var activityIDs: [String] { self.items.map(\.activityId) }
}
