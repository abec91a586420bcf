public import FitCircleCore
public import Foundation

/// The streak as the device computes it offline, with FitCircleCore's rules (`Streak.replay`): what the
/// app shows as "🔥 5 days" before it can reach the server, and what the server answers once it has synced.
public struct LocalStreak: Sendable, Equatable {
    /// The streak, the open period included if it already counts.
    public var current: Int
    public var longest: Int
    /// The open period already counts.
    public var counted: Bool
    /// Ending the open period as it stands would cost the streak.
    public var atRisk: Bool
    public var freezesLeft: Int
    /// The first day of the open period, in the person's zone.
    public var periodStart: LocalDate
}

/// What the device keeps for its streak: the rules and zone the server last gave (`GET /api/streaks/current`),
/// and the local days on which this device recorded what the streak counts (app opens), in a small JSON
/// file beside the outbox.
actor LocalStreakKeeper {
    struct Rules: Codable, Equatable {
        var policy: StreakPolicy
        var weekStartsOn: Weekday
        var timeZone: String
    }

    private struct Saved: Codable {
        var rules: Rules?
        var appOpenDays: Set<LocalDate>
    }

    private let url: URL
    private var saved: Saved

    init(url: URL) {
        self.url = url
        self.saved =
            (try? JSONDecoder().decode(Saved.self, from: Data(contentsOf: url))) ?? Saved(rules: nil, appOpenDays: [])
    }

    func noteAppOpens(on days: [LocalDate]) {
        let before = self.saved.appOpenDays.count
        self.saved.appOpenDays.formUnion(days)
        if self.saved.appOpenDays.count > before { self.save() }
    }

    func adopt(_ rules: Rules) {
        guard rules != self.saved.rules else { return }
        self.saved.rules = rules
        self.save()
    }

    /// The streak at `now`, or nil before the server's rules are known or when the streak counts something
    /// the device does not keep (check-ins, push-ups).
    func standing(at now: Date) -> LocalStreak? {
        guard let rules = self.saved.rules, rules.policy.basis == .appOpen,
            let zone = TimeZone(identifier: rules.timeZone)
        else { return nil }
        let today = LocalDate(now, in: zone)
        let days = self.saved.appOpenDays.filter { $0 <= today }.map { DailyTracking(date: $0, appOpened: true) }
        let (_, standing) = Streak.replay(days, through: today, policy: rules.policy, weekStartsOn: rules.weekStartsOn)
        return LocalStreak(
            current: standing.current,
            longest: standing.longest,
            counted: standing.met,
            atRisk: standing.atRisk,
            freezesLeft: standing.freezesLeft,
            periodStart: Streak.period(of: today, policy: rules.policy, weekStartsOn: rules.weekStartsOn)
        )
    }

    private func save() {
        try? JSONEncoder().encode(self.saved).write(to: self.url, options: .atomic)
    }
}

extension LocalStreakKeeper.Rules {
    /// The rules of a streak summary; nil if it names a rule this SDK does not know.
    init?(_ summary: Components.Schemas.StreakSummary) {
        let rules = summary.rules
        guard let basis = StreakPolicy.Basis(rawValue: summary.basis.rawValue),
            let period = StreakPolicy.Period(rawValue: summary.period.rawValue),
            let per = StreakPolicy.Freezes.Allowance(rawValue: rules.freezesPer.rawValue),
            let automatic = StreakPolicy.Freezes.Automatic(rawValue: rules.automaticFreeze.rawValue),
            let weekStartsOn = Weekday(rawValue: rules.weekStartsOn.rawValue)
        else { return nil }
        self.init(
            policy: StreakPolicy(
                basis: basis,
                period: period,
                freezes: .init(count: rules.freezes, per: per, automatic: automatic),
                resetAfterMissed: rules.resetAfterMissed,
                shortfallKeepsStreak: rules.shortfallKeepsStreak,
                milestones: rules.milestones.map { .init(count: $0.count, badge: $0.badge) },
                checkInGraceDays: rules.checkInGraceDays
            ),
            weekStartsOn: weekStartsOn,
            timeZone: summary.timeZone
        )
    }
}
