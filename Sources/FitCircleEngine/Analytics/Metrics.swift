public import FitCircleCore
public import FitCircleJobs
public import FitCircleStore
import Foundation

/// Spec 000's success metrics for operators (issue 24): a daily rollup job turns each closed local day
/// into one numerator and denominator per metric (`metric_rollups`), and a report adds up the rows of its
/// range — never the raw events.
public struct Metrics: JobOwner {
    let store: Store
    let profile: RuleProfile
    let clock: WallClock

    public init(store: Store, profile: RuleProfile, clock: WallClock) {
        self.store = store
        self.profile = profile
        self.clock = clock
    }

    /// Once a day for the whole cluster, at 12:30 UTC: the day before is then over in every zone (the last,
    /// UTC−12, ends at 12:00). It rolls up that day, and the day before it again for late syncs and opens.
    public static let rollup = "metrics.rollup"
    public static let schedules = [ZoneSchedule(kind: Self.rollup, hour: 12, minute: 30, zone: "UTC")]

    public func registerJobs(in jobs: inout JobRegistry) throws(JobRegistry.Conflict) {
        try jobs.register(Self.rollup) { job in
            let date = try ZoneBatch(job).date
            for day in [date.adding(days: -2), date.adding(days: -1)] { _ = try await self.rollUp(day) }
        }
        jobs.schedule(Self.schedules)
    }

    /// Computes and saves the rows of local day `day` (again: the same rows, or newer ones).
    @discardableResult
    public func rollUp(_ day: LocalDate) async throws -> [MetricRow] {
        let facts = try await self.store.read { tx in try await self.facts(of: day, in: tx) }
        let rows = facts.rows
        try await self.store.transaction { tx in
            try await tx.metrics.save(rows, at: self.clock.now())
        }
        return rows
    }

    /// Rolls up every day from `first` to `last`, telling `progress` after each (a backfill).
    public func rollUp(
        from first: LocalDate,
        to last: LocalDate,
        progress: (LocalDate, Int, Int) -> Void = { _, _, _ in }
    ) async throws {
        let total = last.ordinal - first.ordinal + 1
        var day = first
        while day <= last {
            try await self.rollUp(day)
            progress(day, day.ordinal - first.ordinal + 1, total)
            day = day.adding(days: 1)
        }
    }

    func facts(of day: LocalDate, in tx: Transaction) async throws -> DayFacts {
        let metrics = tx.metrics
        var facts = DayFacts(day: day)
        facts.accounts = try await metrics.accounts(through: day)
        facts.users = try await metrics.userCount()
        facts.active = try await metrics.activeUsers(from: day, to: day)
        facts.activeWeek = try await metrics.activeCount(from: day.adding(days: -6), to: day)
        facts.activeMonth = try await metrics.activeCount(from: day.adding(days: -29), to: day)
        for k in [1, 7, 30] { facts.cohorts[k] = try await metrics.signUps(on: day.adding(days: -k)) }
        // A cohort's first 7 (30) days are its day and the 6 (29) after: those before `day`.
        facts.customised = Set(
            try await metrics.events(
                named: ServerEvent.preferenceChanged.rawValue,
                from: day.adding(days: -7),
                to: day.adding(days: -1)
            ).map(\.userID)
        )
        facts.optedOut = Set(
            try await metrics.events(
                named: ServerEvent.preferenceChanged.rawValue,
                from: day.adding(days: -30),
                to: day.adding(days: -1)
            )
            .filter { $0.properties["allOff"] == .boolean(true) }.map(\.userID)
        )
        facts.dailyGoals = try await metrics.goalCompletion(span: Goal.Span.daily.rawValue, period: day)
        if day.adding(days: 1).weekday == self.profile.week.startsOn {
            let weekStart = day.adding(days: -6)
            facts.weeklyGoals = try await metrics.goalCompletion(span: Goal.Span.weekly.rawValue, period: weekStart)
            facts.boardViewers = Set(
                try await metrics.events(named: ServerEvent.leaderboardViewed.rawValue, from: weekStart, to: day)
                    .filter { $0.properties["board"] == .string("circle") }.map(\.userID)
            )
            facts.circleMembers = try await metrics.circleMembers(
                from: weekStart.start(in: .gmt),
                to: day.adding(days: 1).start(in: .gmt)
            )
            facts.sessionsInWeek = try await metrics.count(
                named: ServerEvent.appOpened.rawValue,
                from: weekStart,
                to: day
            )
        }
        for (user, closed) in try await metrics.closedStreakPeriods(ofActiveOn: day) {
            facts.streaks[user] = Streak.standing(on: day, after: closed)
        }
        facts.frozenInMonth = try await metrics.frozenActiveCount(from: day.adding(days: -29), to: day)
        for event in try await metrics.events(named: ServerEvent.checkInCompleted.rawValue, from: day, to: day) {
            facts.checkIns[event.userID] = event.properties["sentiment"] == .boolean(true)
        }
        for event in try await metrics.events(named: ServerEvent.dataSubmitted.rawValue, from: day, to: day) {
            // A submitter's first claim of the day decides whether they were early (a later re-claim updates
            // the figure; it does not make them late).
            if case .integer(let hour)? = event.properties["localHour"] {
                facts.submissions[event.userID] = min(facts.submissions[event.userID] ?? hour, hour)
            }
        }
        facts.pushUsers = try await metrics.pushUserCount()
        let delivered = try await metrics.events(named: ServerEvent.notificationDelivered.rawValue, from: day, to: day)
        let pushed = Set(
            delivered.filter { $0.properties["channel"] == .string("push") }.compactMap {
                $0.properties["notificationId"]?.string
            }
        )
        facts.pushDelivered = pushed.count
        // Opened within the hour: on the day or, for a late-evening push, the next.
        let opened = try await metrics.events(
            named: ServerEvent.notificationOpened.rawValue,
            from: day,
            to: day.adding(days: 1)
        )
        facts.pushOpenedWithinHour =
            Set(
                opened.filter { ($0.properties["minutes"]?.number ?? .infinity) <= 60 }.compactMap {
                    $0.properties["notificationId"]?.string
                }
            ).intersection(pushed).count
        facts.notificationOpeners = Set(opened.filter { $0.localDate == day }.map(\.userID))
        let emailed = delivered.filter { $0.properties["channel"] == .string("email") }.compactMap {
            $0.properties["notificationId"]?.string
        }
        facts.emailsDelivered = emailed.count
        facts.emailsBounced = try await metrics.events(
            named: ServerEvent.notificationFailed.rawValue,
            from: day,
            to: day
        )
        .filter { $0.properties["channel"] == .string("email") }.count
        (facts.emailsOpened, facts.emailsClicked) = try await metrics.emailEngagement(of: emailed)
        facts.unsubscribes = try await metrics.count(named: ServerEvent.emailUnsubscribed.rawValue, from: day, to: day)
        let finished = try await metrics.events(named: ServerEvent.challengeFinished.rawValue, from: day, to: day)
        facts.challengeFinishers = finished.count
        facts.challengeCompleters = finished.filter { $0.properties["completed"] == .boolean(true) }.count
        let created = try await metrics.events(named: ServerEvent.challengeCreated.rawValue, from: day, to: day)
        facts.challengesCreated = created.count
        facts.challengesFromTemplates = created.filter { $0.properties["templateId"] != nil }.count
        return facts
    }
}
