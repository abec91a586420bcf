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

/// What a local day holds for the metrics, counted by the database (`MetricQueries`: the rollup job reads
/// counts, never the day's events), and the rollup rows it makes (pure). A cohort metric's row is keyed by
/// its cohort's day, a weekly one's by the week's last day.
///
/// Checking in, submitting data and opening a notification are themselves activity
/// (`MetricCatalog.activeServerEvents`), so the people who did them on the day are among its active users.
public struct DayFacts: Sendable {
    public var day: LocalDate
    /// Accounts by the end of the day (each in its zone): the active counts' denominator.
    public var accounts = 0
    /// Accounts when the day was rolled up: push opt-in's denominator.
    public var users = 0
    public var active = 0
    public var activeWeek = 0
    public var activeMonth = 0
    /// Of the users who signed up on the day `k` days before (k = 1, 7 and 30): how many, and how many of
    /// them were active on the day.
    public var cohorts: [Int: Cohort] = [:]
    /// Of the cohort 7 days before, how many changed a preference within their first 7 days; of the cohort
    /// 30 days before, how many switched every channel off within their first 30.
    public var customised = 0
    public var optedOut = 0
    public var dailyGoals: (users: Int, completed: Int) = (0, 0)
    /// Present when the day ends a week.
    public var weeklyGoals: (users: Int, completed: Int)?
    /// Present when the day ends a week: the circles' members in the week, and how many of them viewed a
    /// circle's board.
    public var circleMembers: (members: Int, viewers: Int)?
    public var sessionsInWeek = 0
    /// Where each active user's streak stood on the day (`Streak.standing`).
    public var streaks: [User.ID: Int] = [:]
    /// Of the users active in the 30 days ending with the day, those a freeze covered in those days.
    public var frozenInMonth = 0
    /// The users who checked in on the day, and how many of them with a sentiment.
    public var checkIns: (users: Int, withSentiment: Int) = (0, 0)
    /// The users who submitted the day's data, and how many of them first did so before 18:00.
    public var submissions: (users: Int, before18: Int) = (0, 0)
    public var pushUsers = 0
    public var pushDelivered = 0
    public var pushOpenedWithinHour = 0
    /// The users who opened a notification on the day.
    public var notificationOpeners = 0
    public var emailsDelivered = 0
    public var emailsBounced = 0
    public var emailsOpened = 0
    public var emailsClicked = 0
    public var unsubscribes = 0
    public var challengeFinishers = 0
    public var challengeCompleters = 0
    public var challengesCreated = 0
    public var challengesFromTemplates = 0

    /// The users who signed up on one day, and how many of them a later day's figure counts.
    public struct Cohort: Equatable, Sendable {
        public var size: Int
        public var active: Int

        public init(size: Int, active: Int) {
            self.size = size
            self.active = active
        }
    }

    public init(day: LocalDate) {
        self.day = day
    }

    /// A submission is early when the day's first claim comes before this local hour (`submission_before_18`).
    public static let earlySubmissionHour = 18
    /// A push counts as opened when it is opened within this many minutes of delivery (`push_open_rate`).
    public static let pushOpenMinutes = 60

    public var rows: [MetricRow] {
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
            let cohort = self.cohorts[k] ?? Cohort(size: 0, active: 0)
            add(metric, cohort.active, cohort.size, on: self.day.adding(days: -k))
        }
        add("preference_customisation", self.customised, self.cohorts[7]?.size ?? 0, on: self.day.adding(days: -7))
        add("opt_out", self.optedOut, self.cohorts[30]?.size ?? 0, on: self.day.adding(days: -30))
        add("dau", self.active, self.accounts)
        add("wau", self.activeWeek, self.accounts)
        add("mau", self.activeMonth, self.accounts)
        add("daily_goal_completion", self.dailyGoals.completed, self.dailyGoals.users)
        if let weekly = self.weeklyGoals { add("weekly_goal_completion", weekly.completed, weekly.users) }
        if let circles = self.circleMembers {
            add("leaderboard_view_rate", circles.viewers, circles.members)
            add("sessions_per_user", self.sessionsInWeek, self.activeWeek)
        }
        add("streak_7_share", self.streaks.values.filter { $0 >= 7 }.count, self.active)
        add("streak_30_share", self.streaks.values.filter { $0 >= 30 }.count, self.active)
        add("freeze_usage", self.frozenInMonth, self.activeMonth)
        add("checkin_completion", self.checkIns.users, self.active)
        add("checkin_sentiment", self.checkIns.withSentiment, self.checkIns.users)
        add("data_submission", self.submissions.users, self.active)
        add("submission_before_18", self.submissions.before18, self.submissions.users)
        add("push_opt_in", self.pushUsers, self.users)
        add("push_open_rate", self.pushOpenedWithinHour, self.pushDelivered)
        add("notification_return", self.notificationOpeners, self.active)
        add("email_deliverability", self.emailsDelivered, self.emailsDelivered + self.emailsBounced)
        add("email_open_rate", self.emailsOpened, self.emailsDelivered)
        add("email_click_rate", self.emailsClicked, self.emailsDelivered)
        add("email_unsubscribe_rate", self.unsubscribes, self.emailsDelivered)
        add("challenge_completion", self.challengeCompleters, self.challengeFinishers)
        add("template_share", self.challengesFromTemplates, self.challengesCreated)
        return rows
    }
}
