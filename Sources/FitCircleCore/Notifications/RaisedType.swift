/// Every notification type the engine raises: a candidate is made only from one of these
/// (`NotificationCandidate.init(type:…)`), so this is the whole list, and the profiles' catalogs are
/// checked against it. A profile may list fewer (what its app tells people), never others.
public enum RaisedType: String, CaseIterable, Sendable {
    // The account, rewards and the day's nudges.
    case welcome, achievement
    case almostThere = "almost_there"
    case streakMilestone = "streak_milestone"
    case goalsPersonalized = "goals_personalized"

    // Circles: invitations, rank changes, encouragement, milestones towards a member's goal.
    case circleInvitation = "circle_invitation"
    case leaderboardChange = "leaderboard_change"
    case leaderboardPassed = "leaderboard_passed"
    case socialEngagement = "social_engagement"
    case challengeMilestone = "challenge_milestone"
    case challengeMilestoneEmail = "challenge_milestone_email"

    // Friends.
    case friendRequest = "friend_request"
    case friendAccepted = "friend_accepted"
    case reactionReceived = "reaction_received"
    case friendActivity = "friend_activity"

    // Challenges between people.
    case challengeInvitation = "challenge_invitation"
    case challengeStartsTomorrow = "challenge_starts_tomorrow"
    case challengeStartsSoon = "challenge_starts_soon"
    case challengeStarted = "challenge_started"
    case challengeProgress = "challenge_progress"
    case challengeLeadTaken = "challenge_lead_taken"
    case challengeRankChange = "challenge_rank_change"
    case challengeNearGoal = "challenge_near_goal"
    case challengeLastDay = "challenge_last_day"
    case challengeEndsSoon = "challenge_ends_soon"
    case challengeWon = "challenge_won"
    case challengeComplete = "challenge_complete"
    case challengeExpired = "challenge_expired"

    // Scheduled at a local time by the profile (`ReminderPlanner`, `ScheduledTriggers`).
    case dailyCheckInReminder = "daily_checkin_reminder"
    case streakReminder = "streak_reminder"
    case dailyCheckInEmail = "daily_checkin_email"
    case streakAtRisk = "streak_at_risk"
    case weeklyGoalProgress = "weekly_goal_progress"
    case weeklyDigest = "weekly_digest"
    case monthlyReport = "monthly_report"
    case newWeeklyChallenge = "new_weekly_challenge"
    case weeklyReminder = "weekly_reminder"
    case dataSubmission = "data_submission"
    case dailyGoalsReady = "daily_goals_ready"
    case stepsToGo = "steps_to_go"

    /// Raised at the times a profile schedules them, by `ScheduledTriggers`.
    public var isScheduled: Bool {
        switch self {
        case .dailyCheckInReminder, .streakReminder, .dailyCheckInEmail, .streakAtRisk, .weeklyGoalProgress,
            .weeklyDigest,
            .monthlyReport, .newWeeklyChallenge, .weeklyReminder, .dataSubmission, .dailyGoalsReady, .stepsToGo:
            true
        default: false
        }
    }

    /// Reminds of something about its day (its check-in, its steps, its goals): said the next day it would
    /// be untrue, so its candidate carries the day (`NotificationCandidate.day`).
    public var isDayBound: Bool {
        switch self {
        case .dailyCheckInReminder, .streakReminder, .dailyCheckInEmail, .streakAtRisk, .dailyGoalsReady, .stepsToGo:
            true
        default: false
        }
    }

    /// Raised by friends and circles: the social app's catalog (spec 004) must list every one.
    public var isSocial: Bool {
        switch self {
        case .circleInvitation, .leaderboardChange, .leaderboardPassed, .socialEngagement, .challengeMilestone,
            .challengeMilestoneEmail,
            .friendRequest, .friendAccepted, .reactionReceived, .friendActivity:
            true
        default: false
        }
    }
}
