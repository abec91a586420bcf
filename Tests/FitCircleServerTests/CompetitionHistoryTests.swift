import FitCircleClient
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
            let runs = Components.Schemas.CompetitionInput(
                name: "Week of runs",
                _type: .mostDistance,
                durationDays: 2,
                stake: 20,
                invitees: [ben.id, cy.id]
            )
            let id = try await app.api(as: ana).createCompetition(body: .json(runs)).created.body.json.id
            try await app.runJobs()

            // R8.4: the invitation in Cy's inbox leads to the competition, where join and decline are offered.
            let inbox = try await app.api(as: cy).getNotificationInbox().ok.body.json.items
            let invitation = try #require(inbox.first { $0._type == "challenge_invitation" }, "\(inbox)")
            #expect(invitation.deepLink == "fitcircle://competitions/\(id)")
            _ = try await app.api(as: cy).declineCompetition(path: .init(id: id)).noContent
            let declined = try await app.api(as: cy).getCompetition(path: .init(id: id)).ok.body.json
            #expect(declined.myState == .declined)
            #expect(try await app.balance(of: cy) == 300)  // nothing staked
            _ = try await app.api(as: ben).joinCompetition(path: .init(id: id), body: .json(.init())).ok
            let mine = try await app.api(as: cy).listCompetitions().ok.body.json.items
            #expect(!mine.contains { $0.id == id }, "a declined invitation leaves the caller's list")

            app.clock.advance(by: 3600)
            for (person, km) in [(ana, 4.0), (ben, 7.5)] {
                let run = app.workout("\(person.email)-run", km: km, minutes: 40, startedMinutesAgo: 45)
                _ = try await app.api(as: person).recordActivity(body: .json(run)).created
            }
            try await app.settleChallenges(after: 2)

            // R8.9: the history, each past competition with how it finished for the caller.
            let history = try await app.api(as: ben).listCompetitions().ok.body.json.items
            let past = try #require(history.first { $0.id == id })
            #expect(past.status == .settled)
            let result = try #require(past.myResult, "\(past)")
            #expect(result.rank == 1 && result.value == 7.5 && result.won && result.payout == 40)
            let anas = try await app.api(as: ana).listCompetitions().ok.body.json.items
            let lost = try #require(anas.first { $0.id == id }?.myResult)
            #expect(lost.rank == 2 && !lost.won && lost.payout == 0)
            // Who declined has no part in it, nor a result.
            let cys = try await app.api(as: cy).getCompetition(path: .init(id: id)).ok.body.json
            #expect(cys.myState == .declined && cys.myResult == nil, "\(cys)")
        }
    }
}
