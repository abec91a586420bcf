public import FitCircleCore
import FitCircleStore
import Foundation

extension Goals {
    /// The end-of-week summary (spec 001, WEEKLY-02 and WEEKLY-04, the "Sunday popup"): on the week's last
    /// day the week so far, on other days the last week that ended. Push-ups are counted as the weekly bonus
    /// counts them (up to each day's cap, the excess apart) against the week's target, and when it was
    /// reached the goal increases are on offer.
    public struct WeeklySummary: Equatable, Sendable {
        public enum Choice: String, CaseIterable, Equatable, Sendable {
            case maintain
            case increase10 = "increase_10"
            case increase20 = "increase_20"

            /// The daily goal this choice makes of `dailyGoal` (× 1, × 1.1 or × 1.2, rounded).
            public func dailyGoal(from dailyGoal: Int) -> Int {
                switch self {
                case .maintain: dailyGoal
                case .increase10: Int((Double(dailyGoal) * 1.1).rounded())
                case .increase20: Int((Double(dailyGoal) * 1.2).rounded())
                }
            }
        }

        /// The first day of the week summarised.
        public var week: LocalDate
        /// Push-ups counted toward the target (each day's up to its cap, ANTCHEAT-01).
        public var reps: Int
        /// Push-ups tracked beyond the days' caps: shown, not counted.
        public var excess: Int
        public var target: Int
        public var percent: Int
        public var reached: Bool
        /// The daily goal each choice would set; empty unless the target was reached.
        public var options: [Choice: Int]
        /// The summary was shown before (it is shown once a week).
        public var alreadySeen: Bool
        public var choice: Choice?
    }

    /// The week the popup is about on `today`: the current one on its last day (Sunday, when the week runs
    /// Monday to Sunday), else the week before.
    func summarisedWeek(on today: LocalDate) -> LocalDate {
        let current = self.start(of: .weekly, holding: today)
        return today == current.adding(days: 6) ? current : current.adding(days: -7)
    }

    /// The summary the popup shows today; the first call of the week marks it seen.
    public func weeklySummary(of user: User.ID) async throws -> WeeklySummary {
        try await self.store.transaction { tx in
            let (account, today) = try await self.locked(user, in: tx)
            let week = self.summarisedWeek(on: today)
            let summary = try await self.summary(of: account, week: week, in: tx)
            try await tx.goals.markWeeklySummarySeen(of: user, week: week, at: self.clock.now())
            return summary
        }
    }

    /// Applies the choice to the daily push-up goal at once (goals planned from now on follow it; the week
    /// summarised keeps the target it was reached against); once a week, and only when the target was reached.
    public func chooseWeekly(_ choice: WeeklySummary.Choice, for user: User.ID) async throws -> (
        summary: WeeklySummary, settings: TrainingSettings
    ) {
        try await self.store.transaction { tx in
            let (account, today) = try await self.locked(user, in: tx)
            let week = self.summarisedWeek(on: today)
            var summary = try await self.summary(of: account, week: week, in: tx)
            guard summary.reached, let dailyGoal = summary.options[choice] else {
                throw DomainError.refused(
                    Refusal(
                        .wrongState,
                        "The weekly target of \(summary.target) was not reached (\(summary.reps)); there is nothing to choose."
                    )
                )
            }
            if let made = summary.choice {
                throw DomainError.refused(
                    Refusal(.wrongState, "This week's choice was already made: \(made.rawValue).")
                )
            }
            var settings = try await tx.training.settings(of: user) ?? .defaults
            settings.dailyGoal = dailyGoal
            try settings.validate(field: "choice.")
            let now = self.clock.now()
            try await tx.training.save(settings, of: user, at: now)
            try await tx.goals.saveWeeklyChoice(choice.rawValue, of: user, week: week, at: now)
            summary.choice = choice
            return (summary, settings)
        }
    }

    private func summary(of user: User, week: LocalDate, in tx: Transaction) async throws -> WeeklySummary {
        let training = try await tx.training.settings(of: user.id) ?? .defaults
        let planned = try await tx.goals.list(of: user.id, span: .weekly, from: week, to: week).first {
            $0.kind == .pushups
        }
        let target = planned.map { Int($0.target) } ?? training.weeklyGoal
        let days = PointsDay.summarize(try await tx.points.lines(of: user.id, from: week, to: week.adding(days: 6)))
        let reps = days.reduce(0) { $0 + $1.pushupsCounted }
        let reached = reps >= target
        let stored = try await tx.goals.weeklySummary(of: user.id, week: week)
        return WeeklySummary(
            week: week,
            reps: reps,
            excess: days.reduce(0) { $0 + $1.pushupsExcess },
            target: target,
            percent: target > 0 ? Int((Double(reps) * 100 / Double(target)).rounded(.down)) : 0,
            reached: reached,
            options: reached
                ? Dictionary(
                    uniqueKeysWithValues: WeeklySummary.Choice.allCases.map {
                        ($0, $0.dailyGoal(from: training.dailyGoal))
                    }
                ) : [:],
            alreadySeen: stored?.seenAt != nil,
            choice: stored?.choice.flatMap(WeeklySummary.Choice.init(rawValue:))
        )
    }
}
