public import FitCircleCore
public import FitCircleStore
import Foundation

/// What a scheduled notification says when its time comes, or nothing when there is nothing to say: each
/// type reads what is true at that moment (has the user checked in? how far is the week's goal?). The
/// policy decides after that (preferences, quiet hours, caps, budget).
struct ScheduledTriggers: Sendable {
    let store: Store
    let profile: RuleProfile
    let goals: Goals
    let streaks: Streaks
    let circles: Circles

    /// The candidate for `user` on local `date`, or nil (a type no trigger raises included: a job queued
    /// by an older version names it).
    func candidate(_ name: String, for user: User.ID, on date: LocalDate) async throws -> NotificationCandidate? {
        guard let type = RaisedType(rawValue: name), type.isScheduled,
            var candidate = try await self.raw(type, for: user, on: date)
        else { return nil }
        if type.isDayBound { candidate.day = date }
        return candidate
    }

    private func raw(_ type: RaisedType, for user: User.ID, on date: LocalDate) async throws -> NotificationCandidate? {
        let key = "\(type.rawValue):\(date.iso)"
        switch type {
        case .dailyCheckInReminder, .streakReminder:
            // Dropped by the policy as "goal already met" once the day counts for the streak.
            let standing = try await self.streaks.current(of: user).standing
            return NotificationCandidate(
                type: type,
                dedupeKey: key,
                data: ["streak": "\(standing.current)", "next": "\(standing.current + 1)"].merging(
                    try await self.firstWeek(of: user, on: date)
                ) { $1 },
                goalMet: standing.met
            )
        case .dailyCheckInEmail:
            // Spec 000's email table: only for users no push reaches — no device, or push switched off
            // (F7: "As a user who disabled push, I want email reminders").
            let (devices, days, preferences) = try await self.store.read { tx in
                (
                    try await tx.notifications.activeDevices(of: user),
                    try await tx.activities.days(of: user, from: date, to: date),
                    try await tx.notifications.preferences(of: user) ?? .defaults
                )
            }
            guard devices.isEmpty || !preferences.push else { return nil }
            let streak = try await self.streaks.current(of: user).standing.current
            return NotificationCandidate(
                type: type,
                dedupeKey: key,
                data: ["streak": "\(streak)"],
                goalMet: days.first?.checkedIn ?? false
            )
        case .streakAtRisk:
            return try await self.streakAtRisk(user, on: date, key: key)
        case .weeklyGoalProgress:
            // Spec 000: mid-week, under half of the week's step goal.
            guard let steps = try await self.goals.weekly(of: user).goals.first(where: { $0.goal.kind == .steps }),
                steps.goal.target > 0
            else {
                return nil
            }
            let percent = Int((steps.actual / steps.goal.target * 100).rounded(.down))
            guard percent < 50 else { return nil }
            return NotificationCandidate(type: type, dedupeKey: key, data: ["percent": "\(percent)"])
        case .weeklyDigest:
            return NotificationCandidate(
                type: type,
                dedupeKey: key,
                data: try await self.weeklyDigest(of: user, on: date)
            )
        case .monthlyReport:
            // On the 1st: the month that just ended.
            let month = date.adding(days: -1).startOfMonth
            let days = try await self.store.read { tx in
                try await tx.activities.days(of: user, from: month, to: date.adding(days: -1))
            }
            let longest = try await self.streaks.current(of: user).standing.longest
            return NotificationCandidate(
                type: type,
                dedupeKey: key,
                data: [
                    "month": NotificationCopy.month(month),
                    "steps": NotificationCopy.count(days.reduce(0) { $0 + $1.steps }),
                    "checkIns": "\(days.filter(\.checkedIn).count)", "streak": "\(longest)",
                ]
            )
        case .dataSubmission:
            // Spec 000: at 20:00 while today's data is unclaimed in a circle that counts today.
            guard !(try await self.circles.pendingSubmissions(of: user).circles.isEmpty) else { return nil }
            let steps = try await self.store.read { tx in
                try await tx.activities.days(of: user, from: date, to: date).first?.steps ?? 0
            }
            return NotificationCandidate(type: type, dedupeKey: key, data: ["steps": NotificationCopy.count(steps)])
        case .dailyGoalsReady:
            // Spec 000 Flow 2, morning: "Good morning! Your daily goals are ready." (planned at 00:00).
            let steps = try await self.goals.daily(of: user).goals.first { $0.goal.kind == .steps }
            return NotificationCandidate(
                type: type,
                dedupeKey: key,
                data: ["steps": steps.map { NotificationCopy.count(Int($0.goal.target)) } ?? ""].merging(
                    try await self.firstWeek(of: user, on: date)
                ) { $1 },
                goalMet: steps?.completed ?? false
            )
        case .stepsToGo:
            // Flow 2, evening: "You're at 7,200 steps—only 1,300 to go!", for someone past half of the day's
            // goal and short of it (a long way off is no nudge; a met goal needs none).
            guard let steps = try await self.goals.daily(of: user).goals.first(where: { $0.goal.kind == .steps }),
                !steps.completed,
                steps.actual * 2 >= steps.goal.target
            else { return nil }
            let left = Int((steps.goal.target - steps.actual).rounded(.up))
            return NotificationCandidate(
                type: type,
                dedupeKey: key,
                data: ["steps": NotificationCopy.count(Int(steps.actual)), "left": NotificationCopy.count(left)]
            )
        case .newWeeklyChallenge, .weeklyReminder:
            return NotificationCandidate(type: type, dedupeKey: key)
        default:
            return nil
        }
    }

    /// Where a new account stands against the first week's four check-ins (`FirstWeekNudge`), counted
    /// before `date`: the reminders of the day say so until the day's check-in.
    private func firstWeek(of user: User.ID, on date: LocalDate) async throws -> [String: String] {
        try await self.store.read { tx in
            guard let account = try await tx.users.find(user) else { return [:] }
            let accountDay = account.accountDay(date)
            guard (1...FirstWeekNudge.days).contains(accountDay) else { return [:] }
            let days = try await tx.activities.days(
                of: user,
                from: date.adding(days: 1 - accountDay),
                to: date.adding(days: -1)
            )
            return FirstWeekNudge.data(accountDay: accountDay, checkIns: days.filter(\.checkedIn).count)
        }
    }

    /// A daily streak is at risk (spec 000's tables: "missed yesterday, freeze available") when yesterday
    /// was saved by a freeze (`freeze: used`) or missed while one is left (`freeze: left`); a weekly one
    /// (spec 001, NOTIF-01) after two days in a row with nothing towards it. Either way the streak is alive
    /// and the current period does not count yet. The profile's copy follows `freeze`.
    private func streakAtRisk(_ user: User.ID, on date: LocalDate, key: String) async throws -> NotificationCandidate? {
        let summary = try await self.streaks.current(of: user)
        let standing = summary.standing
        guard standing.current > 0, !standing.met else { return nil }
        let freeze: String
        switch summary.policy.period {
        case .day:
            switch summary.recent.first?.status {
            case .frozen: freeze = "used"
            case .missed where standing.freezesLeft > 0: freeze = "left"
            default: return nil
            }
        case .week:
            let days = try await self.store.read { tx in
                try await tx.activities.days(of: user, from: date.adding(days: -2), to: date.adding(days: -1))
            }
            guard days.allSatisfy({ summary.policy.basis.progress(of: $0) == 0 }) else { return nil }
            freeze = standing.freezesLeft > 0 ? "left" : "none"
        }
        return NotificationCandidate(
            type: .streakAtRisk,
            dedupeKey: key,
            data: ["streak": "\(standing.current)", "freezesLeft": "\(standing.freezesLeft)", "freeze": freeze]
        )
    }
}
