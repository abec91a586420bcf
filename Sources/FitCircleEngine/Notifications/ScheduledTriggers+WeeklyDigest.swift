import FitCircleCore
import FitCircleStore
import Foundation

extension ScheduledTriggers {
    /// The week in review (spec 000, Feature 7's weekly digest): the week's steps and their share of the
    /// weekly step goal, the streak, the change of weight, the best place on a circle's weekly board, the
    /// days the daily step goal was met, and the step goal the next week starts from (planned from this
    /// week's days, not this week's goal again). A value with nothing
    /// behind it (no weights logged, no circle) is left out, and the email leaves its line out.
    func weeklyDigest(of user: User.ID, on date: LocalDate) async throws -> [String: String] {
        let start = date.startOfWeek(startingOn: self.profile.week.startsOn)
        let (account, days) = try await self.store.read { tx in
            (try await tx.users.find(user), try await tx.activities.days(of: user, from: start, to: date))
        }
        let steps = days.reduce(0) { $0 + $1.steps }
        var data = [
            "steps": NotificationCopy.count(steps),
            "streak": "\(try await self.streaks.current(of: user).standing.current)",
            "days": "\(date.days(since: start) + 1)",
        ]
        if let weekly = try await self.goals.weekly(of: user).goals.first(where: { $0.goal.kind == .steps }),
            weekly.goal.target > 0
        {
            // Whole percent reached, as the spec's "52,341 (104% of goal)" counts it.
            data["goalPercent"] = "\(Int((Double(steps) / weekly.goal.target * 100).rounded(.down)))"
        }
        if let next = try await self.goals.nextWeekStepTarget(of: user) {
            data["nextGoal"] = NotificationCopy.count(Int(next))
        }
        let weights = days.compactMap(\.weightKg)
        if let first = weights.first, let last = weights.last, weights.count > 1, let account {
            data["weightChange"] = NotificationCopy.weightChange(
                kilograms: last - first,
                in: account.profile.weightUnit
            )
        }
        let met = try await self.goals.dailyHistory(of: user, days: date.days(since: start) + 1).filter { period in
            period.goals.contains { $0.goal.kind == .steps && $0.completed }
        }
        data["goalDays"] = "\(met.count)"
        if let (rank, circle) = try await self.bestWeeklyPlace(of: user) {
            data["rank"] = "\(rank)"
            data["circle"] = circle
            data["ranked"] = "yes"  // the copy's variant that names the place
        }
        return data
    }

    /// The user's best rank on the weekly board of any of their circles, and that circle's name.
    private func bestWeeklyPlace(of user: User.ID) async throws -> (Int, String)? {
        var best: (Int, String)?
        for (circle, _) in try await self.store.read({ tx in try await tx.circles.list(of: user) }) {
            let standings = try await self.circles.standings(of: user, in: circle.id, for: user)
            guard let rank = standings.first(where: { $0.board.period == .weekly })?.row.rank else { continue }
            if best.map({ rank < $0.0 }) ?? true { best = (rank, circle.name) }
        }
        return best
    }
}
