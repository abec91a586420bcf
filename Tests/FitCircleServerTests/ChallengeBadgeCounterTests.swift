import FitCircleCore
import FitCircleEngine
import FitCircleTesting
import Foundation
import Testing

/// Spec 002 §4's challenge badges as `famefit` states them, each at its threshold and one short of it,
/// from the record settlements keep (`ChallengeRecord.adding`, the same steps settlement and replay take).
struct ChallengeBadgeCounterTests {
    static func badge(_ id: String) throws -> Badge {
        try #require(
            try RuleProfileLoader.load(named: "famefit", from: profilesDirectory).rewards.badges.first { $0.id == id },
            "\(id)"
        )
    }

    enum Result {
        case won(ChallengeType, WinFacts)
        case lost

        typealias WinFacts = ChallengeRecord.WinFacts
        static func win(
            _ type: ChallengeType = .distance,
            stake: Int = 0,
            tenLevelsUp: Bool = false,
            fromLastPlace: Bool = false
        ) -> Result {
            .won(
                type,
                WinFacts(
                    kind: WinFacts.kind(of: type, rule: type.rule),
                    beatSomeoneTenLevelsUp: tenLevelsUp,
                    fromLastPlace: fromLastPlace,
                    stake: stake
                )
            )
        }
    }

    /// The record after these settlements, oldest first.
    static func record(_ results: [Result]) -> ChallengeRecord {
        results.enumerated().reduce(ChallengeRecord()) { record, next in
            let (index, result) = next
            let participant = ChallengeParticipant(
                challengeID: .init("c\(index)"),
                userID: .init("me"),
                state: .joined,
                updatedAt: Date(timeIntervalSince1970: 0),
                finalRank: 1,
                won: { if case .won = result { true } else { false } }()
            )
            if case .won(_, let facts) = result { return record.adding(participant, facts: facts) }
            return record.adding(participant)
        }
    }

    static func unlocks(_ id: String, _ results: [Result]) throws -> Bool {
        try Self.badge(id).isMet(by: Self.record(results).counters)
    }

    @Test func undefeated_fiveWinsInARow() throws {
        #expect(try Self.unlocks("undefeated", Array(repeating: .win(), count: 5)))
        #expect(
            try !Self.unlocks(
                "undefeated",
                Array(repeating: .win(), count: 4) + [.lost] + Array(repeating: .win(), count: 4)
            )
        )
    }

    @Test func comebackKid_aWinAfterThreeLosses() throws {
        #expect(try Self.unlocks("comeback-kid", [.lost, .lost, .lost, .win()]))
        #expect(try !Self.unlocks("comeback-kid", [.lost, .lost, .win(), .lost, .lost, .win()]))
    }

    @Test func giantSlayer_beatingSomeoneTenLevelsUp() throws {
        #expect(try Self.unlocks("giant-slayer", [.win(tenLevelsUp: true)]))
        #expect(try !Self.unlocks("giant-slayer", Array(repeating: .win(), count: 10)))
    }

    @Test func timeTitan_calorieCrusher_xpExpert_fiveWinsOfTheirKind() throws {
        for (id, type) in [("time-titan", ChallengeType.duration), ("calorie-crusher", .calories), ("xp-expert", .xp)] {
            #expect(try Self.unlocks(id, Array(repeating: .win(type), count: 5)), "\(id)")
            #expect(try !Self.unlocks(id, Array(repeating: .win(type), count: 4) + [.win(.distance)]), "\(id)")
        }
    }

    @Test func highRoller_aWinWithAStakeOf500() throws {
        #expect(try Self.unlocks("high-roller", [.win(stake: 500)]))
        #expect(try !Self.unlocks("high-roller", [.win(stake: 499), .win(stake: 499)]))
        #expect(try !Self.unlocks("high-roller", [.lost]))
    }

    @Test func underdog_aWinFromLastPlace() throws {
        #expect(try Self.unlocks("underdog", [.win(fromLastPlace: true)]))
        #expect(try !Self.unlocks("underdog", [.win(), .lost]))
    }
}
