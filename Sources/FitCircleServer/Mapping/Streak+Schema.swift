import FitCircleAPI
import FitCircleCore
import FitCircleEngine

extension Components.Schemas.StreakSummary {
    init(_ summary: Streaks.Summary) throws {
        self.init(
            basis: try mapped(summary.policy.basis),
            period: try mapped(summary.policy.period),
            periodStart: summary.period.iso,
            current: summary.standing.current,
            longest: summary.standing.longest,
            counted: summary.standing.met,
            freezesLeft: summary.standing.freezesLeft,
            freezesRenewOn: summary.freezesRenewOn.iso,
            freezeActive: summary.standing.freezeRequested,
            atRisk: summary.standing.atRisk,
            recent: try summary.recent.map(Components.Schemas.StreakEntry.init),
            timeZone: summary.timeZone,
            rules: .init(
                freezes: summary.policy.freezes.count,
                freezesPer: try mapped(summary.policy.freezes.per),
                automaticFreeze: try mapped(summary.policy.freezes.automatic),
                resetAfterMissed: summary.policy.resetAfterMissed,
                shortfallKeepsStreak: summary.policy.shortfallKeepsStreak,
                milestones: summary.policy.milestones.map { .init(count: $0.count, badge: $0.badge) },
                checkInGraceDays: summary.policy.checkInGraceDays,
                weekStartsOn: try mapped(summary.weekStartsOn)
            )
        )
    }
}

extension Components.Schemas.StreakEntry {
    init(_ entry: Streak.Entry) throws {
        self.init(
            period: entry.period.iso,
            status: try mapped(entry.status),
            reason: entry.reason,
            streak: entry.count,
            comeback: entry.comeback,
            milestone: entry.milestone.map { .init(count: $0.count, badge: $0.badge, reachedOn: entry.period.iso) }
        )
    }
}

extension Components.Schemas.CheckInResult {
    init(_ result: Streaks.CheckInResult) throws {
        self.init(
            date: result.date.iso,
            late: result.late,
            previousDay: .init(
                date: result.previousDay.date.iso,
                steps: result.previousDay.steps,
                stepGoal: result.previousDayStepGoal.map { Int($0) },
                goalPercent: result.previousDayStepGoal.flatMap {
                    $0 > 0 ? Int(Double(result.previousDay.steps) * 100 / $0) : nil
                },
                sentiment: try result.sentiment.map(mapped)
            ),
            streak: try .init(result.summary),
            milestone: result.milestone.map { .init(count: $0.count, badge: $0.badge) },
            comeback: result.comeback,
            message: result.message
        )
    }
}
