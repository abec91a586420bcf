/// Who wins a challenge and what each participant is paid out of escrow (spec 002: winner takes all).
/// Pure: the final board (in board order) and the pot in, the results out.
public enum ChallengeSettlement {
    public struct Standing: Equatable, Sendable {
        public var user: User.ID
        public var rank: Int
        /// As the board holds it (pace negated).
        public var value: Double
        public var reachedMilliseconds: Int64

        public init(user: User.ID, rank: Int, value: Double, reachedMilliseconds: Int64) {
            self.user = user
            self.rank = rank
            self.value = value
            self.reachedMilliseconds = reachedMilliseconds
        }
    }

    public struct Result: Equatable, Sendable {
        public var winners: [User.ID]
        /// XP out of escrow per participant (absent: nothing).
        public var payouts: [User.ID: Int]
        /// Nobody won: every stake goes back.
        public var refunded: Bool
    }

    /// The winners by the rule's goal, and the pot shared among them:
    /// - `most`: the top of the board; ties on the board are broken by who got there first, so several
    ///   winners only when value and instant are the same to the millisecond;
    /// - `first_to`: whoever reached the target first (the board caps values at the target);
    /// - `everyone_to`: all who reached the target.
    /// Nobody scoring (or nobody reaching a target) wins nothing and every stake is refunded. The pot is
    /// split evenly; the points that do not divide go one each to the winners in board order.
    public static func settle(rule: ChallengeRule, standings: [Standing], stakes: [User.ID: Int]) -> Result {
        let ordered = standings.sorted { $0.rank < $1.rank }
        var winners: [User.ID] = []
        switch rule.goal {
        case .most:
            if let top = ordered.first, top.value != 0 || !rule.higherWins {
                winners = ordered.filter { $0.value == top.value && $0.reachedMilliseconds == top.reachedMilliseconds }
                    .map(\.user)
            }
        case .firstTo:
            if let top = ordered.first, rule.reachesTarget(top.value) { winners = [top.user] }
        case .everyoneTo:
            winners = ordered.filter { rule.reachesTarget($0.value) }.map(\.user)
        }
        let pot = stakes.values.reduce(0, +)
        guard !winners.isEmpty else {
            return Result(winners: [], payouts: stakes.filter { $0.value > 0 }, refunded: true)
        }
        var payouts: [User.ID: Int] = [:]
        guard pot > 0 else { return Result(winners: winners, payouts: [:], refunded: false) }
        let share = pot / winners.count
        let remainder = pot % winners.count
        for (index, winner) in winners.enumerated() { payouts[winner] = share + (index < remainder ? 1 : 0) }
        return Result(winners: winners, payouts: payouts, refunded: false)
    }
}
