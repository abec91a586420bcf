extension Streak {
    /// The streak computed from a person's days alone: from nothing, each period from the first that holds
    /// anything through the one before `today`'s closed in order by `close`, and where it stands in
    /// today's period by `standing` — the rules the server's ledger closes periods with, for an app that
    /// keeps the streak on the device between syncs (the Swift SDK's `localStreak`).
    public static func replay(
        _ days: [DailyTracking],
        through today: LocalDate,
        policy: StreakPolicy,
        weekStartsOn: Weekday,
        target: Int = 1
    ) -> (state: Streak, standing: Standing) {
        let nothing = Activity(progress: 0, target: target)
        let activities = Activity.byPeriod(
            days: days,
            freezeRequests: [],
            policy: policy,
            weekStartsOn: weekStartsOn,
            nothing: nothing
        )
        let current = Self.period(of: today, policy: policy, weekStartsOn: weekStartsOn)
        var state = Streak()
        if var period = activities.keys.min() {
            while period < current {
                state =
                    state.close(period, with: activities[period] ?? nothing, policy: policy, weekStartsOn: weekStartsOn)
                    .0
                period = Self.period(after: period, policy: policy)
            }
        }
        return (
            state,
            state.standing(
                in: current,
                with: activities[current] ?? nothing,
                policy: policy,
                weekStartsOn: weekStartsOn
            )
        )
    }
}
