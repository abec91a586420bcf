public import FitCircleClient
import FitCircleCore
import Foundation

extension TestApp {
    /// Moves the clock `days` on, past the settlement grace, and runs the jobs that settle and pay out.
    public func settleChallenges(after days: Double) async throws {
        self.clock.advance(by: days * 86_400 + Challenge.settlementGrace + 60)
        try await self.runJobs()
    }

    /// The ids of a settled challenge's winners, as `person` sees its board.
    public func winners(of challenge: String, as person: TestPerson) async throws -> [String] {
        let board = try await self.api(as: person).getCompetitionLeaderboard(path: .init(id: challenge)).ok.body.json
        guard board.competition.status == .settled else {
            throw TestSetupError("\(board.competition.name) is \(board.competition.status), not settled")
        }
        return board.rows.filter { $0.won == true }.compactMap(\.userId)
    }
}

extension TestApp {
    /// `person` joins the challenge (with its `joinCode` when private): the answer, whatever it is.
    public func joinChallenge(_ id: String, as person: TestPerson, code: String? = nil) async throws
        -> Operations.JoinCompetition.Output
    {
        try await self.api(as: person).joinCompetition(path: .init(id: id), body: .json(.init(joinCode: code)))
    }
}
