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
        let facts = try await self.store.snapshot { tx in
            try await tx.metrics.makeRoomForGroups()
            return try await self.facts(of: day, in: tx)
        }
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
        (facts.active, facts.activeWeek, facts.activeMonth) = try await metrics.activeCounts(endingOn: day)
        for k in [1, 7, 30] {
            let cohort = try await metrics.signUps(on: day.adding(days: -k))
            facts.cohorts[k] = DayFacts.Cohort(
                size: cohort.count,
                active: try await metrics.activeCount(of: cohort, on: day)
            )
            // A cohort's first 7 (30) days are its day and the 6 (29) after: those before `day`.
            let changed = ServerEvent.preferenceChanged.rawValue
            if k == 7 {
                facts.customised = try await metrics.count(
                    of: cohort,
                    named: changed,
                    from: day.adding(days: -7),
                    to: day.adding(days: -1)
                )
            } else if k == 30 {
                facts.optedOut = try await metrics.count(
                    of: cohort,
                    named: changed,
                    from: day.adding(days: -30),
                    to: day.adding(days: -1),
                    whereTrue: "allOff"
                )
            }
        }
        facts.dailyGoals = try await metrics.goalCompletion(span: Goal.Span.daily.rawValue, period: day)
        if day.adding(days: 1).weekday == self.profile.week.startsOn {
            let weekStart = day.adding(days: -6)
            facts.weeklyGoals = try await metrics.goalCompletion(span: Goal.Span.weekly.rawValue, period: weekStart)
            facts.circleMembers = try await metrics.circleMembers(
                from: weekStart.start(in: .gmt),
                to: day.adding(days: 1).start(in: .gmt),
                viewingBoardsFrom: weekStart,
                to: day
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
        let people = try await metrics.people(on: day, earlyBefore: DayFacts.earlySubmissionHour)
        facts.checkIns = (people.checkedIn, people.withSentiment)
        facts.submissions = (people.submitted, people.submittedEarly)
        facts.notificationOpeners = people.openedANotification
        facts.pushUsers = try await metrics.pushUserCount()
        let sent = try await metrics.notifications(on: day, openedWithin: DayFacts.pushOpenMinutes)
        (facts.pushDelivered, facts.pushOpenedWithinHour) = (sent.pushed, sent.pushesOpened)
        (facts.emailsDelivered, facts.emailsOpened, facts.emailsClicked) = (
            sent.emailed, sent.emailsOpened, sent.emailsClicked
        )
        facts.emailsBounced = try await metrics.count(
            named: ServerEvent.notificationFailed.rawValue,
            from: day,
            to: day,
            whereText: ("channel", "email")
        )
        facts.unsubscribes = try await metrics.count(named: ServerEvent.emailUnsubscribed.rawValue, from: day, to: day)
        let finished = ServerEvent.challengeFinished.rawValue
        facts.challengeFinishers = try await metrics.count(named: finished, from: day, to: day)
        facts.challengeCompleters = try await metrics.count(named: finished, from: day, to: day, whereTrue: "completed")
        let created = ServerEvent.challengeCreated.rawValue
        facts.challengesCreated = try await metrics.count(named: created, from: day, to: day)
        facts.challengesFromTemplates = try await metrics.count(
            named: created,
            from: day,
            to: day,
            wherePresent: "templateId"
        )
        return facts
    }
}
