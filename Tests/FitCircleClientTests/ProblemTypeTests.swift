import FitCircleTesting
import Foundation
import Testing

@testable import FitCircleClient

/// Issue 46: a business rule's refusal reaches an app as a problem type of its own, with its figures, so the
/// app can say "40 XP short" without reading the words.
struct ProblemTypeTests {
    @Test(arguments: Backend.available)
    func aStakeLargerThanTheBalanceIsInsufficientXPWithTheFigures(_ backend: Backend) async throws {
        try await withTestApp(backend) { app in
            try await FitCircle.withInProcessDevice(app, transport: InProcessTransport(app: app)) { device in
                _ = try await app.person("ana@example.com", xp: 60)
                try await device.signInForDevelopment(email: "ana@example.com")
                let input = Components.Schemas.CompetitionInput(
                    name: "Staked",
                    _type: .distance,
                    durationDays: 3,
                    stake: 100
                )
                do {
                    _ = try await device.api.createCompetition(body: .json(input))
                    Issue.record("a stake of 100 XP with 60 was accepted")
                } catch {
                    let problem = try #require(error.fitCircleProblem, "\(error)")
                    #expect(problem.type == "/problems/insufficient-xp" && problem.status == 409, "\(problem)")
                    #expect(problem.xpNeeded == 100 && problem.xpAvailable == 60, "\(problem)")
                    #expect(problem.title == "Not enough XP")
                }
            }
        }
    }
}
