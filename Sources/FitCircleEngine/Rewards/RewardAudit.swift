import FitCircleCore
import FitCircleStore
import Foundation

/// Replays a user's points ledger: walks its lines in ledger order and computes each again from its
/// source (the event, the day's counted push-ups before it, the level its total gave), then checks the
/// totals, the level, the counters and the badges against that walk. What a line records as a fact of
/// its time (the daily goal then, the streak then) is taken from the line.
struct RewardAudit: Sendable {
    let profile: RuleProfile

    var policy: RewardPolicy { self.profile.rewards }

    /// What differs, in words; empty when the stored rewards are what the events make.
    func differences(of user: User.ID, in tx: Transaction) async throws -> [String] {
        let lines = try await tx.points.allLines(of: user)
        let events = Dictionary(
            uniqueKeysWithValues: try await tx.activities.list(of: user, kinds: [.workout, .checkIn]).map {
                ($0.event.id, $0)
            }
        )
        let stats = try await tx.points.stats(of: user) ?? RewardStats()
        let unlocked = try await tx.points.unlockedBadges(of: user)
        var problems: [String] = []

        var total = 0
        var days: [LocalDate: PointsDay] = [:]
        var counters: [Badge.Counter: Int] = [:]
        var bySource: [ActivityEvent.ID: [PointsLine]] = [:]
        for line in lines {
            let level = self.policy.levels.level(for: total)
            let day = days[line.date] ?? PointsDay(date: line.date)
            let expected = self.expected(
                line,
                level: level,
                day: day,
                days: days,
                events: events,
                earlier: line.sourceEventID.flatMap { bySource[$0] } ?? []
            )
            if let expected,
                expected.amount != line.amount || expected.counted != line.counted || expected.excess != line.excess
            {
                problems.append(
                    "line \(line.sequence ?? 0) (\(line.reason.rawValue), \(line.sourceKey)): stored \(line.amount) points, \(line.counted) counted, "
                        + "\(line.excess) excess; its source makes \(expected.amount), \(expected.counted), \(expected.excess)"
                )
            }
            if let recorded = line.detail.level, recorded != level {
                problems.append(
                    "line \(line.sequence ?? 0) (\(line.sourceKey)): written at level \(recorded), the ledger before it makes level \(level)"
                )
            }
            total += line.amount
            days[line.date] = day.adding(line)
            switch line.reason {
            case .series: if line.counted > 0 { counters[.series, default: 0] += 1 }
            case .weeklyChallenge: counters[.weeklyChallenges, default: 0] += 1
            case .reversal where line.detail.reverses == .series && line.counted < 0: counters[.series, default: 0] -= 1
            default: break
            }
            counters[.pushups, default: 0] += line.counted
            if let event = line.sourceEventID { bySource[event, default: []].append(line) }
        }

        // Every rewarded input has its line, and a deleted one its reversal.
        for stored in events.values.sorted(by: { $0.event.id < $1.event.id }) {
            let event = stored.event
            let credited = bySource[event.id] ?? []
            switch event.payload {
            case .workout(let workout) where workout.type == .pushups && self.policy.series != nil:
                break
            case .workout:
                if stored.deletedAt == nil { counters[.workouts, default: 0] += 1 }
            case .checkIn:
                if stored.deletedAt == nil { counters[.checkIns, default: 0] += 1 }
            default:
                continue
            }
            if self.earnsLine(event.payload) && !credited.contains(where: { $0.reason != .reversal }) {
                problems.append(
                    "activity \(event.id) (\(event.kind.rawValue), \(event.localDate.iso)) has no ledger line"
                )
            }
            if stored.deletedAt != nil && !credited.isEmpty && !credited.contains(where: { $0.reason == .reversal }) {
                problems.append("activity \(event.id) was deleted but its points were not taken back")
            }
        }

        if stats.totalPoints != total {
            problems.append("total points: stored \(stats.totalPoints), the ledger sums to \(total)")
        }
        let level = self.policy.levels.level(for: total)
        if stats.level != level { problems.append("level: stored \(stats.level), \(total) points make level \(level)") }
        for counter in [Badge.Counter.series, .pushups, .workouts, .checkIns, .weeklyChallenges]
        where (stats.counters[counter] ?? 0) != (counters[counter] ?? 0) {
            problems.append(
                "counter \(counter.rawValue): stored \(stats.counters[counter] ?? 0), the ledger and events make \(counters[counter] ?? 0)"
            )
        }

        // Badges: exactly those the ledger credits, and every catalog badge whose requirement holds.
        let creditedBadges = Set(
            lines.compactMap { $0.reason == .badge || $0.reason == .weeklyChallenge ? $0.detail.badgeID : nil }
        )
        let held = Set(unlocked.map(\.badgeID))
        if held != creditedBadges {
            problems.append("badges: held \(held.sorted()), the ledger credits \(creditedBadges.sorted())")
        }
        var replayedCounters = stats.counters.merging(counters) { _, replayed in replayed }
        replayedCounters[.points] = total
        replayedCounters[.level] = level
        for badge in self.policy.badges where badge.isMet(by: replayedCounters) && !held.contains(badge.id) {
            problems.append("badge \(badge.id): its requirement holds but it is not unlocked")
        }
        return problems
    }

    private func earnsLine(_ payload: ActivityPayload) -> Bool {
        switch payload {
        case .workout(let workout):
            (workout.type == .pushups && self.policy.series != nil) || self.policy.workouts != nil
        case .checkIn: self.policy.checkIn != nil
        default: false
        }
    }

    /// What a line should hold, computed again from its source; nil when it has nothing to compute from.
    private func expected(
        _ line: PointsLine,
        level: Int,
        day: PointsDay,
        days: [LocalDate: PointsDay],
        events: [ActivityEvent.ID: StoredActivity],
        earlier: [PointsLine]
    ) -> (amount: Int, counted: Int, excess: Int)? {
        let event = line.sourceEventID.flatMap { events[$0]?.event }
        switch line.reason {
        case .series:
            guard let rule = self.policy.series, let source = event, case .workout(let workout) = source.payload,
                let goal = line.detail.dailyGoal
            else {
                return (Int.min, 0, 0)
            }
            let award = Points.series(
                number: workout.series ?? 1,
                reps: workout.reps ?? 0,
                countedBefore: day.pushupsCounted,
                cap: self.policy.pushupCap?.cap(dailyGoal: goal, level: level),
                streakMultiplier: self.policy.streakMultiplier.value(streak: line.detail.streak ?? 0),
                policy: rule
            )
            return (self.policy.isLate(source) ? 0 : award.points, award.counted, award.excess)
        case .workout:
            guard let rule = self.policy.workouts, let source = event, case .workout(let workout) = source.payload
            else { return (Int.min, 0, 0) }
            return (
                self.policy.isLate(source) ? 0 : Points.workout(workout, earnedToday: day.workoutPoints, policy: rule),
                0, 0
            )
        case .checkIn:
            return (event.map { self.policy.isLate($0) } == true ? 0 : self.policy.checkIn ?? 0, 0, 0)
        case .weeklyBonus, .weeklyChallenge:
            guard let start = line.detail.weekStart, let target = line.detail.target else { return (Int.min, 0, 0) }
            let counted = (0..<7).reduce(0) { $0 + (days[start.adding(days: $1)]?.pushupsCounted ?? 0) }
            let amount = line.reason == .weeklyBonus ? self.policy.weeklyBonus : self.policy.weeklyChallenge?.points
            return counted >= target ? (amount ?? 0, 0, 0) : (0, 0, 0)
        case .badge:
            return (self.policy.badges.first { $0.id == line.detail.badgeID }?.xp ?? Int.min, 0, 0)
        case .reversal:
            let credited = earlier.filter { $0.reason != .reversal }
            return (
                -credited.reduce(0) { $0 + $1.amount }, -credited.reduce(0) { $0 + $1.counted },
                -credited.reduce(0) { $0 + $1.excess }
            )
        case .goalMet:
            return (self.policy.goalMet ?? Int.min, 0, 0)
        case .submission:
            return (self.policy.submission ?? Int.min, 0, 0)
        case .stake, .stakeRefund, .stakePayout:
            // Escrow movements: audited against the challenges' escrow (`ChallengeAudit`).
            return nil
        }
    }
}
