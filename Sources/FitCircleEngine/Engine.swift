import AsyncHTTPClient
public import FitCircleCore
import FitCircleDelivery
public import FitCircleJobs
import FitCircleStore
import Foundation

/// Every use case of FitCircle, grouped by feature, over one context. The HTTP layer holds one of these.
/// A feature's use case is declared here and made in `init`, once each; `Engine.make` gathers the secrets.
public final class Engine: Sendable {
    /// The store, rules, clock, ids, analytics and board events every use case shares.
    public let context: EngineContext
    public let accounts: Accounts
    public let serviceKeys: ServiceKeys
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
    public let kudos: Kudos
    /// Every durable job kind with its handler and every zone schedule, as the features registered them.
    public let jobs: JobRegistry

    /// The app's rule profile, and each person's under the experiments they are in.
    public var rules: Rules { self.context.rules }
    /// The app's own rule profile (what everyone is under but for the experiments they are in).
    public var profile: RuleProfile { self.context.profile }

    init(
        context: EngineContext,
        auth: AuthConfiguration,
        verifiers: [IdentityTokenVerifier],
        accessTokenSecret: Data,
        links: EmailLinks,
        composer: EmailComposer?,
        blobs: any BlobStore,
        transports: Transports,
        webhooks: WebhookFanout
    ) async throws {
        let (store, rules, ids, clock, analytics, boards) = (
            context.store, context.rules, context.ids, context.clock, context.analytics, context.boards
        )
        let profile = context.profile
        self.context = context
        self.accounts = Accounts(
            store: store,
            rules: rules,
            configuration: auth,
            verifiers: verifiers,
            accessTokens: await AccessTokens(
                secret: accessTokenSecret,
                lifetime: auth.accessTokenLifetime,
                clock: clock
            ),
            csrf: CSRFTokens(secret: accessTokenSecret),
            ids: ids,
            clock: clock
        )
        self.serviceKeys = ServiceKeys(store: store, clock: clock)
        self.events = Events(store: store, profile: profile, recorder: analytics, clock: clock)
        self.activities = Activities(
            store: store,
            rules: rules,
            ids: ids,
            clock: clock,
            boards: boards,
            analytics: analytics
        )
        self.goals = Goals(
            store: store,
            rules: rules,
            activities: self.activities,
            ids: ids,
            clock: clock,
            analytics: analytics,
            scoring: ChallengeScoring(events: boards, catalog: profile.notifications, ids: ids)
        )
        self.streaks = Streaks(
            store: store,
            rules: rules,
            activities: self.activities,
            goals: self.goals,
            clock: clock,
            analytics: analytics
        )
        self.notifications = Notifications(store: store, rules: rules, ids: ids, clock: clock, analytics: analytics)
        self.circles = Circles(
            store: store,
            rules: rules,
            ids: ids,
            clock: clock,
            events: boards,
            goals: self.goals,
            analytics: analytics
        )
        self.idempotency = Idempotency(store: store, clock: clock)
        self.rateLimits = SharedRateLimits(store: store, clock: clock)
        self.rewards = Rewards(store: store, profile: profile, clock: clock)
        self.deliveries = Deliveries(
            store: store,
            transports: transports,
            composer: composer,
            catalog: profile.notifications,
            ids: ids,
            clock: clock,
            analytics: analytics
        )
        self.profiles = Profiles(store: store, blobs: blobs, rules: rules, ids: ids, clock: clock)
        self.training = Training(store: store, clock: clock, goals: self.goals)
        self.dayRollover = DayRollover(store: store, goals: self.goals, streaks: self.streaks, clock: clock)
        self.emails = Emails(
            store: store,
            catalog: profile.notifications,
            links: links,
            clock: clock,
            analytics: analytics
        )
        self.friends = Friends(store: store, profile: profile, ids: ids, clock: clock)
        self.challenges = Challenges(
            store: store,
            profile: profile,
            ids: ids,
            clock: clock,
            events: boards,
            analytics: analytics
        )
        self.weeklyContents = WeeklyContents(store: store, clock: clock)
        self.metrics = Metrics(store: store, profile: profile, clock: clock)
        self.experiments = Experiments(store: store, rules: rules, ids: ids, clock: clock)
        self.webhooks = Webhooks(
            store: store,
            fanout: webhooks,
            sender: transports.webhookSender ?? WebhookSender(http: .endpoints, clock: clock),
            ids: ids,
            clock: clock
        )
        self.eventForwarding = EventForwarding(store: store, transport: transports.analytics, ids: ids, clock: clock)
        self.boardClosing = BoardClosing(store: store, circles: self.circles, clock: clock)
        self.reminders = ReminderPlanner(
            store: store,
            rules: rules,
            notifications: self.notifications,
            triggers: ScheduledTriggers(
                store: store,
                profile: profile,
                goals: self.goals,
                streaks: self.streaks,
                circles: self.circles
            ),
            clock: clock
        )
        self.replay = Replay(store: store, profile: profile, clock: clock)
        self.housekeeping = Housekeeping(
            idempotency: self.idempotency,
            rateLimits: self.rateLimits,
            events: self.events,
            accounts: self.accounts
        )
        self.accountLife = AccountLife(
            store: store,
            blobs: blobs,
            circles: self.circles,
            catalog: profile.notifications,
            clock: clock
        )
        self.console = Console(
            store: store,
            profile: profile,
            streaks: self.streaks,
            rewards: self.rewards,
            notifications: self.notifications,
            deliveries: self.deliveries,
            clock: clock
        )
        self.kudos = Kudos(context: context)
        // The features that run durable jobs register them here; a kind registered twice stops the node at start.
        self.jobs = try JobRegistry(owners: [
            self.dayRollover, self.notifications, self.deliveries, self.reminders, self.boardClosing, self.circles,
            self.housekeeping, self.friends, self.challenges, self.metrics, self.eventForwarding, self.webhooks,
        ])
    }
}
