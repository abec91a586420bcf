import FitCircleTesting
import Foundation
import Testing

/// Spec 004 Requirement 8 from an invitee's side: the invitation's notification offers join and decline,
/// a decline is taken (R8.4); and the history lists past competitions with how each finished (R8.9).
struct CompetitionHistoryTests {
    @Test(arguments: Backend.available)
    func r8_4_anInvitationIsDeclined_r8_9_pastCompetitionsAreListedWithTheirResults(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "social") { app async throws in
            let ana = try await app.person("ana@example.com", xp: 300)
            let ben = try await app.person("ben@example.com", xp: 300)
            let cy = try await app.person("cy@example.com", xp: 300)
            try await app.befriend(ana, ben)
            try await app.befriend(ana, cy)
            let created = try await app.request(
                .post,
                "/api/competitions",
                token: try await ana.token(app),
                json: [
                    "name": "Week of runs", "type": "most_distance", "durationDays": 2, "stake": 20,
                    "invitees": [ben.id, cy.id],
                ]
            )
            #expect(created.status == .created, "\(created.text)")
            let id = try #require(try created.jsonObject()["id"] as? String)
            try await app.runJobs()

            // R8.4: the invitation in Cy's inbox leads to the competition, where join and decline are offered.
            let inbox = try await app.request(.get, "/api/notifications/inbox", token: try await cy.token(app))
                .jsonObject()
            let invitation = try #require(
                (inbox["items"] as? [[String: Any]])?.first { $0["type"] as? String == "challenge_invitation" },
                "\(inbox)"
            )
            #expect(invitation["deepLink"] as? String == "fitcircle://competitions/\(id)")
            let declined = try await app.request(
                .post,
                "/api/competitions/\(id)/decline",
                token: try await cy.token(app)
            )
            #expect(declined.status == .ok, "\(declined.text)")
            #expect(try declined.jsonObject()["myState"] as? String == "declined")
            #expect(try await app.balance(of: cy) == 300)  // nothing staked
            #expect(
                try await app.request(.post, "/api/competitions/\(id)/join", token: try await ben.token(app), json: [:])
                    .status == .ok
            )
            let mine =
                try await app.request(.get, "/api/competitions", token: try await cy.token(app)).jsonObject()["items"]
                as? [[String: Any]]
            #expect(
                mine?.contains { $0["id"] as? String == id } == false,
                "a declined invitation leaves the caller's list"
            )

            app.clock.advance(by: 3600)
            for (person, km) in [(ana, 4.0), (ben, 7.5)] {
                let run = app.workout("\(person.email)-run", km: km, minutes: 40, startedMinutesAgo: 45)
                _ = try await app.api(as: person).recordActivity(body: .json(run)).created
            }
            try await app.settleChallenges(after: 2)

            // R8.9: the history, each past competition with how it finished for the caller.
            let history =
                try await app.request(.get, "/api/competitions", token: try await ben.token(app)).jsonObject()["items"]
                as? [[String: Any]]
            let past = try #require(history?.first { $0["id"] as? String == id })
            #expect(past["status"] as? String == "settled")
            let result = try #require(past["myResult"] as? [String: Any], "\(past)")
            #expect(
                result["rank"] as? Int == 1 && result["value"] as? Double == 7.5 && result["won"] as? Bool == true
                    && result["payout"] as? Int == 40
            )
            let anas =
                try await app.request(.get, "/api/competitions", token: try await ana.token(app)).jsonObject()["items"]
                as? [[String: Any]]
            let lost = try #require(anas?.first { $0["id"] as? String == id }?["myResult"] as? [String: Any])
            #expect(lost["rank"] as? Int == 2 && lost["won"] as? Bool == false && lost["payout"] as? Int == 0)
            // Who declined has no part in it, nor a result.
            let cys = try await app.request(.get, "/api/competitions/\(id)", token: try await cy.token(app))
                .jsonObject()
            #expect(cys["myState"] as? String == "declined" && cys["myResult"] == nil, "\(cys)")
        }
    }
}
