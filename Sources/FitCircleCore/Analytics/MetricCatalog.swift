/// Every figure of the metrics report, in the order it is shown. Days are each user's own local days;
/// "active" means the user did something in the app that day: any app event, or the server's `app_opened`,
/// `goal_viewed`, `leaderboard_viewed`, `checkin_completed`, `data_submitted`, `notification_opened`,
/// `notification_acted` or `preference_changed` (not a background health sync, nor a notification sent).
public enum MetricCatalog {
    public static let activeServerEvents: Set<ServerEvent> = [
        .appOpened, .goalViewed, .leaderboardViewed, .checkInCompleted, .dataSubmitted, .notificationOpened,
        .notificationActed, .preferenceChanged,
    ]

    public static let all: [Metric] = [
        .init(
            id: "d1_retention",
            name: "D1 retention",
            definition:
                "Of the users who signed up on the day (the cohort, by their local day), the share active on the next day.",
            kind: .share
        ),
        .init(
            id: "d7_retention",
            name: "D7 retention",
            definition: "Of the day's sign-up cohort, the share active on the 7th day after.",
            kind: .share,
            target: 0.35
        ),
        .init(
            id: "d30_retention",
            name: "D30 retention",
            definition: "Of the day's sign-up cohort, the share active on the 30th day after.",
            kind: .share,
            target: 0.20
        ),
        .init(
            id: "dau",
            name: "Daily active users",
            definition: "Users active on the day; a week or month shows the average day.",
            kind: .dailyCount
        ),
        .init(
            id: "wau",
            name: "Weekly active users",
            definition: "Users active on any of the 7 days ending with the day; a period shows its last day's.",
            kind: .windowCount
        ),
        .init(
            id: "mau",
            name: "Monthly active users",
            definition: "Users active on any of the 30 days ending with the day; a period shows its last day's.",
            kind: .windowCount
        ),
        .init(
            id: "daily_goal_completion",
            name: "Daily goal completion",
            definition: "Of the users with daily goals for the day, the share who completed all of them.",
            kind: .share,
            target: 0.65
        ),
        .init(
            id: "weekly_goal_completion",
            name: "Weekly goal completion",
            definition:
                "Of the users with weekly goals for the week ending on the day, the share who completed all of them.",
            kind: .share,
            target: 0.50
        ),
        .init(
            id: "streak_7_share",
            name: "7-day streaks",
            definition:
                "Of the day's active users, the share whose streak stood at 7 or more that day (before the day's check-in, what the days before left).",
            kind: .share,
            target: 0.40
        ),
        .init(
            id: "streak_30_share",
            name: "30-day streaks",
            definition: "Of the day's active users, the share whose streak stood at 30 or more that day.",
            kind: .share,
            target: 0.15
        ),
        .init(
            id: "freeze_usage",
            name: "Freeze usage",
            definition:
                "Of the users active in the 30 days ending with the day, the share a freeze covered at least once in those days; a period shows its last day's.",
            kind: .windowShare,
            target: 0.60
        ),
        .init(
            id: "checkin_completion",
            name: "Check-in completion",
            definition: "Of the day's active users, the share who checked in for the day.",
            kind: .share,
            target: 0.85
        ),
        .init(
            id: "checkin_sentiment",
            name: "Check-ins with sentiment",
            definition: "Of the day's check-ins, the share that acknowledged yesterday with a sentiment.",
            kind: .share
        ),
        .init(
            id: "data_submission",
            name: "Data submission rate",
            definition: "Of the day's active users, the share who claimed the day's data in a circle.",
            kind: .share,
            target: 0.75
        ),
        .init(
            id: "submission_before_18",
            name: "Submissions before 18:00",
            definition: "Of the day's submitters, the share whose first claim of the day came before 18:00 local time.",
            kind: .share
        ),
        .init(
            id: "leaderboard_view_rate",
            name: "Leaderboard view rate",
            definition:
                "Of the users in a circle during the week ending on the day, the share who looked at a circle's board that week.",
            kind: .share,
            target: 0.80
        ),
        .init(
            id: "push_opt_in",
            name: "Push opt-in",
            definition: "Of all users when the day was rolled up, the share with an active push device.",
            kind: .share,
            target: 0.75
        ),
        .init(
            id: "push_open_rate",
            name: "Push open rate (1 hour)",
            definition:
                "Of the notifications delivered by push on the day, the share opened within an hour of being sent.",
            kind: .share,
            target: 0.25
        ),
        .init(
            id: "notification_return",
            name: "Notification-driven return",
            definition: "Of the day's active users, the share who opened a notification that day.",
            kind: .share,
            target: 0.25
        ),
        .init(
            id: "preference_customisation",
            name: "Preferences customised in 7 days",
            definition:
                "Of the day's sign-up cohort, the share who changed a notification or email preference within their first 7 days.",
            kind: .share,
            target: 0.40
        ),
        .init(
            id: "opt_out",
            name: "Opt-out in 30 days",
            definition:
                "Of the day's sign-up cohort, the share who switched off every notification channel within their first 30 days.",
            kind: .share,
            target: 0.10
        ),
        .init(
            id: "email_deliverability",
            name: "Email deliverability",
            definition: "Of the emails sent on the day, the share not bounced.",
            kind: .share,
            target: 0.99
        ),
        .init(
            id: "email_open_rate",
            name: "Email open rate",
            definition: "Of the emails delivered on the day, the share opened (by the rollup).",
            kind: .share,
            target: 0.30
        ),
        .init(
            id: "email_click_rate",
            name: "Email click rate",
            definition: "Of the emails delivered on the day, the share with a link clicked (by the rollup).",
            kind: .share
        ),
        .init(
            id: "email_unsubscribe_rate",
            name: "Email unsubscribe rate",
            definition: "Unsubscribes on the day per email delivered on the day.",
            kind: .share
        ),
        .init(
            id: "sessions_per_user",
            name: "Sessions per active user per week",
            definition: "App opens in the week ending on the day, per user active in that week.",
            kind: .ratio,
            target: 12
        ),
        .init(
            id: "challenge_completion",
            name: "Challenge completion",
            definition:
                "Of the participants of challenges settled on the day, the share who completed theirs (reached the target, or scored on a most-wins challenge).",
            kind: .share,
            target: 0.70
        ),
        .init(
            id: "template_share",
            name: "Template share",
            definition: "Of the challenges created on the day, the share made from a template.",
            kind: .share
        ),
    ]

    public static let byID: [String: Metric] = Dictionary(uniqueKeysWithValues: Self.all.map { ($0.id, $0) })
}
