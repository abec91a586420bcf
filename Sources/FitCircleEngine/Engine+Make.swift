import AsyncHTTPClient
public import FitCircleCore
import FitCircleDelivery
public import FitCircleStore
public import Foundation

extension Engine {
    /// Assembles every use case over one store. The access-token key is `signingKey` when the operator set
    /// one, else a random secret created once and kept in the database, so all nodes and restarts share it.
    public static func make(
        store: Store,
        profile: RuleProfile,
        auth: AuthConfiguration,
        jwks: [IdentityProvider: any JWKSSource],
        blobs: any BlobStore,
        clock: WallClock,
        signingKey: Data? = nil,
        transports: Transports = Transports()
    ) async throws -> Engine {
        let secret: Data
        if let signingKey {
            guard signingKey.count >= 32 else { throw SigningKeyTooShort(length: signingKey.count) }
            secret = signingKey
        } else {
            let stored = try await store.transaction { tx in
                try await tx.serverSecret(
                    named: "access-token-hmac",
                    orCreate: { Secrets.random(bytes: 48) },
                    at: clock.now()
                )
            }
            secret = Data(stored.utf8)
        }
        // Email links (unsubscribe, tracking) are signed with a key of their own, kept like the other.
        let linkSecret = try await store.transaction { tx in
            try await tx.serverSecret(
                named: "email-link-hmac",
                orCreate: { Secrets.random(bytes: 48) },
                at: clock.now()
            )
        }
        let links = EmailLinks(secret: Data(linkSecret.utf8))
        var composer: EmailComposer?
        if let channel = transports.email {
            composer = EmailComposer(
                templates: try await EmailComposer.bundledTemplates(),
                settings: channel.settings,
                links: links
            )
        }
        let ids = IDGenerator(clock: clock)
        let verifiers = jwks.map { provider, source in
            IdentityTokenVerifier(
                provider: provider,
                clientIDs: provider == .google ? auth.googleClientIDs : auth.appleClientIDs,
                webClientID: provider == .google ? auth.googleWebClientID : auth.appleWebClientID,
                keys: source,
                clock: clock
            )
        }
        let rules = Rules(base: profile)
        let accounts = Accounts(
            store: store,
            rules: rules,
            configuration: auth,
            verifiers: verifiers,
            accessTokens: await AccessTokens(secret: secret, lifetime: auth.accessTokenLifetime, clock: clock),
            csrf: CSRFTokens(secret: secret),
            ids: ids,
            clock: clock
        )
        let boards = BoardEvents(indexes: BoardIndexes())
        let webhooks = WebhookFanout(ids: ids)
        let analytics = EventRecorder(forward: transports.analytics != nil, webhooks: webhooks)
        let events = Events(store: store, profile: profile, recorder: analytics, clock: clock)
        let activities = Activities(
            store: store,
            rules: rules,
            ids: ids,
            clock: clock,
            boards: boards,
            analytics: analytics
        )
        let goals = Goals(
            store: store,
            rules: rules,
            activities: activities,
            ids: ids,
            clock: clock,
            analytics: analytics,
            scoring: ChallengeScoring(events: boards, catalog: profile.notifications, ids: ids)
        )
        let streaks = Streaks(
            store: store,
            rules: rules,
            activities: activities,
            goals: goals,
            clock: clock,
            analytics: analytics
        )
        let notifications = Notifications(store: store, rules: rules, ids: ids, clock: clock, analytics: analytics)
        let circles = Circles(
            store: store,
            rules: rules,
            ids: ids,
            clock: clock,
            events: boards,
            goals: goals,
            analytics: analytics
        )
        let idempotency = Idempotency(store: store, clock: clock)
        let rateLimits = SharedRateLimits(store: store, clock: clock)
        let rewards = Rewards(store: store, profile: profile, clock: clock)
        let deliveries = Deliveries(
            store: store,
            transports: transports,
            composer: composer,
            catalog: profile.notifications,
            ids: ids,
            clock: clock,
            analytics: analytics
        )
        return try Engine(
            rules: rules,
            accounts: accounts,
            profiles: Profiles(store: store, blobs: blobs, rules: rules, ids: ids, clock: clock),
            activities: activities,
            streaks: streaks,
            goals: goals,
            training: Training(store: store, clock: clock, goals: goals),
            rewards: rewards,
            dayRollover: DayRollover(store: store, goals: goals, streaks: streaks, clock: clock),
            notifications: notifications,
            deliveries: deliveries,
            emails: Emails(
                store: store,
                catalog: profile.notifications,
                links: links,
                clock: clock,
                analytics: analytics
            ),
            circles: circles,
            friends: Friends(store: store, profile: profile, ids: ids, clock: clock),
            challenges: Challenges(
                store: store,
                profile: profile,
                ids: ids,
                clock: clock,
                events: boards,
                analytics: analytics
            ),
            weeklyContents: WeeklyContents(store: store, clock: clock),
            events: events,
            metrics: Metrics(store: store, profile: profile, clock: clock),
            experiments: Experiments(store: store, rules: rules, ids: ids, clock: clock),
            webhooks: Webhooks(
                store: store,
                fanout: webhooks,
                sender: transports.webhookSender ?? WebhookSender(http: .shared, clock: clock),
                ids: ids,
                clock: clock
            ),
            eventForwarding: EventForwarding(store: store, transport: transports.analytics, ids: ids, clock: clock),
            boardClosing: BoardClosing(store: store, circles: circles, clock: clock),
            reminders: ReminderPlanner(
                store: store,
                rules: rules,
                notifications: notifications,
                triggers: ScheduledTriggers(
                    store: store,
                    profile: profile,
                    goals: goals,
                    streaks: streaks,
                    circles: circles
                ),
                clock: clock
            ),
            idempotency: idempotency,
            replay: Replay(store: store, profile: profile, clock: clock),
            rateLimits: rateLimits,
            housekeeping: Housekeeping(
                idempotency: idempotency,
                rateLimits: rateLimits,
                events: events,
                accounts: accounts
            ),
            accountLife: AccountLife(
                store: store,
                blobs: blobs,
                circles: circles,
                catalog: profile.notifications,
                clock: clock
            ),
            console: Console(
                store: store,
                profile: profile,
                streaks: streaks,
                rewards: rewards,
                notifications: notifications,
                deliveries: deliveries,
                clock: clock
            )
        )
    }
}

/// The configured access-token signing key is too short to be safe.
public struct SigningKeyTooShort: Error, CustomStringConvertible {
    public var length: Int
    public var description: String { "auth.signingKey must be at least 32 bytes; it has \(self.length)" }
}
