public import Foundation

/// A person's record in challenges (spec 002 §3), kept as settlements happen and rebuilt from settled
/// challenges by replay: the same pure steps either way.
public struct ChallengeRecord: Equatable, Sendable, Codable {
    public var challenges: Int
    public var wins: Int
    public var currentWinStreak: Int
    public var longestWinStreak: Int
    /// Losses since the last win (a win after three or more is a comeback).
    public var lossesInARow: Int
    /// The sum of final places of the challenges placed in, and how many those were (the average's parts).
    public var placementSum: Int
    public var placed: Int
    public var xpWon: Int
    public var xpLost: Int
    /// What spec 002 §4's badges count of wins (`Badge.Counter`): by kind, after three losses, over someone
    /// ten levels up, from last place, by less than 1 %, and the largest stake won.
    public var winsByKind: [String: Int]
    public var largestStakeWon: Int

    public init(
        challenges: Int = 0,
        wins: Int = 0,
        currentWinStreak: Int = 0,
        longestWinStreak: Int = 0,
        lossesInARow: Int = 0,
        placementSum: Int = 0,
        placed: Int = 0,
        xpWon: Int = 0,
        xpLost: Int = 0,
        winsByKind: [String: Int] = [:],
        largestStakeWon: Int = 0
    ) {
        self.winsByKind = winsByKind
        self.largestStakeWon = largestStakeWon
        self.challenges = challenges
        self.wins = wins
        self.currentWinStreak = currentWinStreak
        self.longestWinStreak = longestWinStreak
        self.lossesInARow = lossesInARow
        self.placementSum = placementSum
        self.placed = placed
        self.xpWon = xpWon
        self.xpLost = xpLost
    }

    public var winRate: Double { self.challenges == 0 ? 0 : Double(self.wins) / Double(self.challenges) }
    public var averagePlacement: Double? { self.placed == 0 ? nil : Double(self.placementSum) / Double(self.placed) }

    private enum CodingKeys: String, CodingKey {
        case challenges, wins, currentWinStreak, longestWinStreak, lossesInARow, placementSum, placed, xpWon, xpLost,
            winsByKind, largestStakeWon
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            challenges: try container.decode(Int.self, forKey: .challenges),
            wins: try container.decode(Int.self, forKey: .wins),
            currentWinStreak: try container.decode(Int.self, forKey: .currentWinStreak),
            longestWinStreak: try container.decode(Int.self, forKey: .longestWinStreak),
            lossesInARow: try container.decode(Int.self, forKey: .lossesInARow),
            placementSum: try container.decode(Int.self, forKey: .placementSum),
            placed: try container.decode(Int.self, forKey: .placed),
            xpWon: try container.decode(Int.self, forKey: .xpWon),
            xpLost: try container.decode(Int.self, forKey: .xpLost),
            winsByKind: try container.decodeIfPresent([String: Int].self, forKey: .winsByKind) ?? [:],
            largestStakeWon: try container.decodeIfPresent(Int.self, forKey: .largestStakeWon) ?? 0
        )
    }

    /// The badge counters this record holds.
    public var counters: [Badge.Counter: Int] {
        var counters: [Badge.Counter: Int] = [
            .challengesCompleted: self.challenges, .challengesWon: self.wins,
            .challengeWinStreak: self.longestWinStreak,
            .largestStakeWon: self.largestStakeWon,
        ]
        for (kind, count) in self.winsByKind {
            if let counter = Badge.Counter(rawValue: kind) { counters[counter] = count }
        }
        return counters
    }

    /// What set one win apart, for the badges (`Badge.Counter` raw values).
    public struct WinFacts: Equatable, Sendable {
        /// `distance_wins`, `duration_wins`, … by the challenge's kind.
        public var kind: Badge.Counter
        public var beatSomeoneTenLevelsUp: Bool
        public var fromLastPlace: Bool
        public var byLessThanOnePercent: Bool
        public var stake: Int

        public init(
            kind: Badge.Counter,
            beatSomeoneTenLevelsUp: Bool = false,
            fromLastPlace: Bool = false,
            byLessThanOnePercent: Bool = false,
            stake: Int = 0
        ) {
            self.kind = kind
            self.beatSomeoneTenLevelsUp = beatSomeoneTenLevelsUp
            self.fromLastPlace = fromLastPlace
            self.byLessThanOnePercent = byLessThanOnePercent
            self.stake = stake
        }

        /// The badge counter of wins of a challenge's kind: by its preset, else by what its rule measures.
        public static func kind(of type: ChallengeType, rule: ChallengeRule) -> Badge.Counter {
            switch type {
            case .specificWorkout: return .specificWorkoutWins
            case .xp: return .xpWins
            default:
                switch rule.metric {
                case .distance: return .distanceWins
                case .duration: return .durationWins
                case .calories: return .calorieWins
                case .xp: return .xpWins
                case .workouts, .activeDays: return .workoutCountWins
                }
            }
        }
    }

    /// The record after one more settled challenge (`facts` for a win).
    public func adding(_ result: ChallengeParticipant, facts: WinFacts? = nil) -> ChallengeRecord {
        var record = self
        record.challenges += 1
        if result.won, let facts {
            record.winsByKind[facts.kind.rawValue, default: 0] += 1
            if record.lossesInARow >= 3 { record.winsByKind[Badge.Counter.comebackWins.rawValue, default: 0] += 1 }
            if facts.beatSomeoneTenLevelsUp {
                record.winsByKind[Badge.Counter.higherLevelWins.rawValue, default: 0] += 1
            }
            if facts.fromLastPlace { record.winsByKind[Badge.Counter.lastPlaceWins.rawValue, default: 0] += 1 }
            if facts.byLessThanOnePercent { record.winsByKind[Badge.Counter.photoFinishWins.rawValue, default: 0] += 1 }
            record.largestStakeWon = max(record.largestStakeWon, facts.stake)
        }
        if result.won {
            record.wins += 1
            record.currentWinStreak += 1
            record.longestWinStreak = max(record.longestWinStreak, record.currentWinStreak)
            record.lossesInARow = 0
        } else {
            record.currentWinStreak = 0
            record.lossesInARow += 1
        }
        if let rank = result.finalRank {
            record.placementSum += rank
            record.placed += 1
        }
        record.xpWon += max(0, result.payout - result.staked)
        record.xpLost += max(0, result.staked - result.payout)
        return record
    }
}

/// Two people's record against each other, from one side (spec 002 §3 "Friend Rivalry Stats"): kept for
/// friends who meet in challenges, both ways.
public struct Rivalry: Equatable, Sendable, Codable {
    public var wins: Int
    public var losses: Int
    public var draws: Int
    /// XP that went from the rival's stakes to this side, and the other way.
    public var xpWon: Int
    public var xpLost: Int
    /// Positive: this side's wins in a row over the rival; negative: the rival's.
    public var streak: Int
    public var lastMetAt: Date?

    public init(
        wins: Int = 0,
        losses: Int = 0,
        draws: Int = 0,
        xpWon: Int = 0,
        xpLost: Int = 0,
        streak: Int = 0,
        lastMetAt: Date? = nil
    ) {
        self.wins = wins
        self.losses = losses
        self.draws = draws
        self.xpWon = xpWon
        self.xpLost = xpLost
        self.streak = streak
        self.lastMetAt = lastMetAt
    }

    public var meetings: Int { self.wins + self.losses + self.draws }

    public enum Outcome: String, CaseIterable, Equatable, Sendable, Codable { case win, loss, draw }

    /// Who did better of two in one challenge: a winner over a non-winner, else the better final place
    /// (a place over none); the same, a draw.
    public static func outcome(of mine: ChallengeParticipant, against theirs: ChallengeParticipant) -> Outcome {
        if mine.won != theirs.won { return mine.won ? .win : .loss }
        switch (mine.finalRank, theirs.finalRank) {
        case (let a?, let b?) where a != b: return a < b ? .win : .loss
        case (.some, nil): return .win
        case (nil, .some): return .loss
        default: return .draw
        }
    }

    /// XP of the loser's stake that went to the winner: their stake over the number of winners.
    public static func exchanged(from loser: ChallengeParticipant, winners: Int) -> Int {
        winners == 0 ? 0 : max(0, loser.staked - loser.payout) / winners
    }

    /// The rivalry after one more meeting.
    public func adding(
        _ mine: ChallengeParticipant,
        against theirs: ChallengeParticipant,
        winners: Int,
        at instant: Date
    ) -> Rivalry {
        var rivalry = self
        switch Self.outcome(of: mine, against: theirs) {
        case .win:
            rivalry.wins += 1
            rivalry.streak = max(rivalry.streak, 0) + 1
        case .loss:
            rivalry.losses += 1
            rivalry.streak = min(rivalry.streak, 0) - 1
        case .draw:
            rivalry.draws += 1
            rivalry.streak = 0
        }
        if mine.won && !theirs.won { rivalry.xpWon += Self.exchanged(from: theirs, winners: winners) }
        if theirs.won && !mine.won { rivalry.xpLost += Self.exchanged(from: mine, winners: winners) }
        rivalry.lastMetAt = instant
        return rivalry
    }
}
