public import FitCircleClient
public import FitCircleCore
import FitCircleStore
import Foundation
import HTTPTypes
import HummingbirdTesting

extension TestApp {
    /// Creates a circle as `person` from `body` as written (any field, even one the typed client would not
    /// send); the circle as the API answers it.
    public func createCircle(by person: TestPerson, _ body: [String: Any]) async throws
        -> Components.Schemas.FitCircle
    {
        let response = try await self.request(.post, "/api/fitcircles", token: try await person.token(self), json: body)
        guard response.status == .created else {
            throw TestSetupError("creating a circle answered \(response.status): \(response.text)")
        }
        return try response.decoded()
    }

    /// The circle's board for `period` as `person` sees it; `query` adds to the query string (`&limit=…`).
    public func board(
        _ circle: String,
        _ period: String = "weekly",
        as person: TestPerson,
        query: String = ""
    ) async throws -> Components.Schemas.Leaderboard {
        let response = try await self.request(
            .get,
            "/api/fitcircles/\(circle)/leaderboard?period=\(period)\(query)",
            token: try await person.token(self)
        )
        guard response.status == .ok else {
            throw TestSetupError("the board answered \(response.status): \(response.text)")
        }
        return try response.decoded()
    }
}

extension TestApp {
    /// Syncs `steps` as today's HealthKit total for `person` (client event `id`).
    public func syncSteps(_ steps: Int, as person: TestPerson, id: String) async throws {
        let sync = Components.Schemas.ActivityInput(
            clientEventId: id,
            _type: .steps,
            occurredAt: self.clock.now,
            source: .healthkit,
            steps: steps
        )
        _ = try await self.api(as: person).recordActivity(body: .json(sync)).created
    }

    /// Syncs the day's step total, then claims it for the circle: the claim as the API answers it.
    @discardableResult
    public func claim(_ steps: Int, in circle: String, as person: TestPerson) async throws
        -> Components.Schemas.CircleSubmission
    {
        try await self.syncSteps(
            steps,
            as: person,
            id: "sync-\(person.id)-\(steps)-\(self.clock.now.timeIntervalSince1970)"
        )
        switch try await self.api(as: person).submitToFitCircle(path: .init(id: circle)) {
        case .created(let created): return try created.body.json
        case .ok(let replayed): return try replayed.body.json
        case let other: throw TestSetupError("the claim answered \(other)")
        }
    }

    /// The texts of the circle's feed as `person` reads it, newest first.
    public func feedTexts(of circle: String, as person: TestPerson) async throws -> [String] {
        try await self.api(as: person).getFitCircleFeed(path: .init(id: circle)).ok.body.json.items.map(\.text)
    }

    /// Reads the circle's board as `person` until this node serves it from its index (`FitCircle-Board-Source`).
    public func untilBoardLoaded(_ circle: String, as person: TestPerson) async throws {
        for _ in 0..<200 {
            let response = try await self.request(
                .get,
                "/api/fitcircles/\(circle)/leaderboard",
                token: try await person.token(self)
            )
            if response.headers[HTTPField.Name("FitCircle-Board-Source")!] == "index" { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw TestSetupError("the board never loaded into the index")
    }

    /// A circle of `count` members besides its owner ("Owner"), member i signed in as `m<i>@example.com`, their
    /// claims of Monday 2 March 2026 (the clock's day) written straight to the store — 1,000 + (i mod
    /// `distinctValues`) × 100 steps, reached a second apart — then boarded by a refresh.
    public func largeCircle(members count: Int, distinctValues: Int) async throws -> (
        id: FitCircleCore.FitCircle.ID, owner: TestPerson, members: [User.ID]
    ) {
        let owner = try await self.person(named: "Owner")
        let circle = try await self.createCircle(
            by: owner,
            ["name": "Everyone", "metric": "steps", "privacy": "public", "memberLimit": 500]
        )
        let id = FitCircle.ID(circle.id)
        var members: [User.ID] = []
        for index in 0..<count {
            members.append(
                User.ID(
                    try await self.devSignIn("m\(index)@example.com").user.id
                )
            )
        }
        let (now, joined) = (self.clock.now, members)
        try await self.store.transaction { tx in
            for (index, member) in joined.enumerated() {
                try await tx.circles.insert(
                    CircleMembership(circleID: id, userID: member, role: .member, joinedAt: now)
                )
                try await tx.circles.save(
                    CircleSubmission(
                        circleID: id,
                        userID: member,
                        date: LocalDate(year: 2026, month: 3, day: 2)!,
                        steps: 1_000 + (index % distinctValues) * 100,
                        weightKg: nil,
                        checkinStreak: 0,
                        submittedAt: now.addingTimeInterval(Double(index)),
                        updatedAt: now.addingTimeInterval(Double(index))
                    )
                )
            }
        }
        let refreshed = try await self.request(
            .post,
            "/api/fitcircles/\(id)/leaderboard/refresh",
            token: try await self.operatorToken()
        )
        guard refreshed.status == .ok else {
            throw TestSetupError("refreshing the board answered \(refreshed.status): \(refreshed.text)")
        }
        return (id, owner, members)
    }
}
