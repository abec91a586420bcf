/// One row of the rollup (`metric_rollups`): a metric's numerator and denominator on a local day (a
/// cohort's day for the cohort metrics, a week's last day for the weekly ones).
public struct MetricRow: Equatable, Sendable {
    public var day: LocalDate
    public var metric: String
    public var numerator: Double
    public var denominator: Double

    public init(day: LocalDate, metric: String, numerator: Double, denominator: Double) {
        self.day = day
        self.metric = metric
        self.numerator = numerator
        self.denominator = denominator
    }
}

/// What a local day holds for the metrics (read by the rollup job through `MetricQueries`), and the
/// rollup rows it makes (pure). A cohort metric's row is keyed by its cohort's day, a weekly one's by the
/// week's last day.
public struct DayFacts: Sendable {
    public var day: LocalDate
    /// Accounts by the end of the day (each in its zone): the active counts' denominator.
    public var accounts = 0
    /// Accounts when the day was rolled up: push opt-in's denominator.
    public var users = 0
    public var active: Set<User.ID> = []
    public var activeWeek = 0
    public var activeMonth = 0
    /// The users who signed up on the day `k` days before, for k = 1, 7 and 30.
    public var cohorts: [Int: Set<User.ID>] = [:]
    /// Of the cohort 7 days before, who changed a preference within their first 7 days; of the cohort 30
    /// days before, who switched every channel off within their first 30.
    public var customised: Set<User.ID> = []
    public var optedOut: Set<User.ID> = []
    public var dailyGoals: (users: Int, completed: Int) = (0, 0)
    /// Present when the day ends a week.
    public var weeklyGoals: (users: Int, completed: Int)?
    public var boardViewers: Set<User.ID> = []
    public var circleMembers: Set<User.ID>?
    public var sessionsInWeek = 0
    /// Where each active user's streak stood on the day (`Streak.standing`).
    public var streaks: [User.ID: Int] = [:]
    /// Of the users active in the 30 days ending with the day, those a freeze covered in those days.
    public var frozenInMonth = 0
    /// Each user's check-in for the day: with a sentiment or not.
    public var checkIns: [User.ID: Bool] = [:]
    /// Each user's first claim of the day's data: the local hour.
    public var submissions: [User.ID: Int] = [:]
    public var pushUsers = 0
    public var pushDelivered = 0
    public var pushOpenedWithinHour = 0
    public var notificationOpeners: Set<User.ID> = []
    public var emailsDelivered = 0
    public var emailsBounced = 0
    public var emailsOpened = 0
    public var emailsClicked = 0
    public var unsubscribes = 0
    public var challengeFinishers = 0
    public var challengeCompleters = 0
    public var challengesCreated = 0
    public var challengesFromTemplates = 0

    public init(day: LocalDate) {
        self.day = day
    }

    public var rows: [MetricRow] {
        let activeCount = Double(self.active.count)
        var rows: [MetricRow] = []
        func add(_ metric: String, _ numerator: Int, _ denominator: Int, on day: LocalDate? = nil) {
            rows.append(
                MetricRow(
                    day: day ?? self.day,
                    metric: metric,
                    numerator: Double(numerator),
                    denominator: Double(denominator)
                )
            )
        }
        for (k, metric) in [(1, "d1_retention"), (7, "d7_retention"), (30, "d30_retention")] {
            let cohort = self.cohorts[k] ?? []
            add(metric, cohort.intersection(self.active).count, cohort.count, on: self.day.adding(days: -k))
        }
        let week = self.cohorts[7] ?? []
        let month = self.cohorts[30] ?? []
        add(
            "preference_customisation",
            week.intersection(self.customised).count,
            week.count,
            on: self.day.adding(days: -7)
        )
        add("opt_out", month.intersection(self.optedOut).count, month.count, on: self.day.adding(days: -30))
        rows.append(MetricRow(day: self.day, metric: "dau", numerator: activeCount, denominator: Double(self.accounts)))
        add("wau", self.activeWeek, self.accounts)
        add("mau", self.activeMonth, self.accounts)
        add("daily_goal_completion", self.dailyGoals.completed, self.dailyGoals.users)
        if let weekly = self.weeklyGoals { add("weekly_goal_completion", weekly.completed, weekly.users) }
        if let members = self.circleMembers {
            add("leaderboard_view_rate", members.intersection(self.boardViewers).count, members.count)
            add("sessions_per_user", self.sessionsInWeek, self.activeWeek)
        }
        let activeStreaks = self.streaks.filter { self.active.contains($0.key) }.values
        add("streak_7_share", activeStreaks.filter { $0 >= 7 }.count, self.active.count)
        add("streak_30_share", activeStreaks.filter { $0 >= 30 }.count, self.active.count)
        add("freeze_usage", self.frozenInMonth, self.activeMonth)
        add("checkin_completion", self.checkIns.keys.filter(self.active.contains).count, self.active.count)
        add("checkin_sentiment", self.checkIns.values.filter { $0 }.count, self.checkIns.count)
        add("data_submission", self.submissions.keys.filter(self.active.contains).count, self.active.count)
        add("submission_before_18", self.submissions.values.filter { $0 < 18 }.count, self.submissions.count)
        add("push_opt_in", self.pushUsers, self.users)
        add("push_open_rate", self.pushOpenedWithinHour, self.pushDelivered)
        add("notification_return", self.notificationOpeners.intersection(self.active).count, self.active.count)
        add("email_deliverability", self.emailsDelivered, self.emailsDelivered + self.emailsBounced)
        add("email_open_rate", self.emailsOpened, self.emailsDelivered)
        add("email_click_rate", self.emailsClicked, self.emailsDelivered)
        add("email_unsubscribe_rate", self.unsubscribes, self.emailsDelivered)
        add("challenge_completion", self.challengeCompleters, self.challengeFinishers)
        add("template_share", self.challengesFromTemplates, self.challengesCreated)
        return rows
    }
}
