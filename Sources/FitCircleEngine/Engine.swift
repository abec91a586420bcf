public import FitCircleCore
public import FitCircleJobs

/// Every use case of FitCircle, grouped by feature. The HTTP layer holds one of these.
public final class Engine: Sendable {
    /// The app's rule profile, and each person's under the experiments they are in.
    public let rules: Rules
    public let accounts: Accounts
    public let profiles: Profiles
    public let activities: Activities
    public let streaks: Streaks
    public let goals: Goals
    public let training: Training
    public let rewards: Rewards
    public let dayRollover: DayRollover
    public let notifications: Notifications
    public let deliveries: Deliveries
    public let emails: Emails
    public let circles: Circles
    public let friends: Friends
    public let challenges: Challenges
    public let weeklyContents: WeeklyContents
    public let events: Events
    public let metrics: Metrics
    public let experiments: Experiments
    public let webhooks: Webhooks
    public let eventForwarding: EventForwarding
    public let boardClosing: BoardClosing
    public let reminders: ReminderPlanner
    public let idempotency: Idempotency
    public let replay: Replay
    public let rateLimits: SharedRateLimits
    public let housekeeping: Housekeeping
    public let accountLife: AccountLife
    public let console: Console
    /// Every durable job kind with its handler and every zone schedule, as the features registered them.
    public let jobs: JobRegistry

    public init(
        rules: Rules,
        accounts: Accounts,
        profiles: Profiles,
        activities: Activities,
        streaks: Streaks,
        goals: Goals,
        training: Training,
        rewards: Rewards,
        dayRollover: DayRollover,
        notifications: Notifications,
        deliveries: Deliveries,
        emails: Emails,
        circles: Circles,
        friends: Friends,
        challenges: Challenges,
        weeklyContents: WeeklyContents,
        events: Events,
        metrics: Metrics,
        experiments: Experiments,
        webhooks: Webhooks,
        eventForwarding: EventForwarding,
        boardClosing: BoardClosing,
        reminders: ReminderPlanner,
        idempotency: Idempotency,
        replay: Replay,
        rateLimits: SharedRateLimits,
        housekeeping: Housekeeping,
        accountLife: AccountLife,
        console: Console
    ) throws(JobRegistry.Conflict) {
        self.rules = rules
        self.accounts = accounts
        self.profiles = profiles
        self.activities = activities
        self.streaks = streaks
        self.goals = goals
        self.training = training
        self.rewards = rewards
        self.dayRollover = dayRollover
        self.notifications = notifications
        self.deliveries = deliveries
        self.emails = emails
        self.circles = circles
        self.friends = friends
        self.challenges = challenges
        self.weeklyContents = weeklyContents
        self.events = events
        self.metrics = metrics
        self.experiments = experiments
        self.webhooks = webhooks
        self.eventForwarding = eventForwarding
        self.boardClosing = boardClosing
        self.reminders = reminders
        self.idempotency = idempotency
        self.replay = replay
        self.rateLimits = rateLimits
        self.housekeeping = housekeeping
        self.accountLife = accountLife
        self.console = console
        // The features that run durable jobs register them here; a kind registered twice stops the node at start.
        self.jobs = try JobRegistry(owners: [
            dayRollover, notifications, deliveries, reminders, boardClosing, circles, housekeeping, friends, challenges,
            metrics, eventForwarding,
            webhooks,
        ])
    }
}

extension Engine {
    /// The app's own rule profile (what everyone is under but for the experiments they are in).
    public var profile: RuleProfile { self.rules.base }
}
