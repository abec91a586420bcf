/// The events the server records itself, where it knows better than an app (issue 24): in the same
/// transaction as what they tell of, with a key that makes a repeat of the same thing the same event.
/// An app may not send these names; its own events are the profile's `events:`.
public enum ServerEvent: String, CaseIterable, Sendable {
    /// An `app_open` activity (spec 003's app-open streak); `streak_updated` follows when the streak moved.
    case appOpened = "app_opened"
    case streakUpdated = "streak_updated"
    /// The day's or week's goals read (`period`), at most once a day each.
    case goalViewed = "goal_viewed"
    /// A circle's or challenge's board read (`board`: circle or challenge), at most once a day each.
    case leaderboardViewed = "leaderboard_viewed"
    /// A check-in (`sentiment`: whether yesterday was acknowledged with one; `late`).
    case checkInCompleted = "checkin_completed"
    /// A claim of the day's data in a circle (`circleId`, `localHour`).
    case dataSubmitted = "data_submitted"
    /// A notification delivered on a channel (`notificationId`, `type`, `channel`), opened (`minutes` after it was sent) or acted on.
    case notificationDelivered = "notification_delivered"
    case notificationOpened = "notification_opened"
    case notificationActed = "notification_acted"
    /// A channel that failed for good (no device took the push; the email bounced).
    case notificationFailed = "notification_failed"
    /// Preferences saved (`scope`: notifications or emails; `allOff`: every channel switched off).
    case preferenceChanged = "preference_changed"
    case emailOpened = "email_opened"
    case emailClicked = "email_clicked"
    case emailUnsubscribed = "email_unsubscribed"
    /// A challenge made (`challengeId`, `templateId` when made from one).
    case challengeCreated = "challenge_created"
    /// A participant's result at settlement (`challengeId`, `won`, `completed`: reached the target, or
    /// scored on a most-wins challenge).
    case challengeFinished = "challenge_finished"
    /// A winner at settlement (`challengeId`).
    case challengeWon = "challenge_won"
    /// A streak period closed: covered by a freeze (`period`, `streak`), or lost (`period`, `lost`: the count it had).
    case streakFrozen = "streak_frozen"
    case streakBroken = "streak_broken"
    /// A streak reached one of the profile's milestones (`streak`, `badge`).
    case streakMilestone = "streak_milestone"
    /// A goal seen met (`goalId`, `span`, `kind`, `period`, `target`).
    case goalCompleted = "goal_completed"
    /// A new level (`level`, `totalPoints`) and a badge unlocked (`badge`, `name`).
    case levelUp = "level_up"
    case badgeUnlocked = "badge_unlocked"
    /// A claim moved the user on a circle's weekly board (`circleId`, `rank`, `previousRank`).
    case rankChanged = "rank_changed"
}
