public import FitCircleCore
public import FitCircleJobs
public import FitCircleStore
import Foundation

/// Notifications as the engine keeps them: the user's preferences, and every decision about a candidate
/// (sent, deferred or dropped, with the trail of rules behind it), which is also the history and the
/// in-app inbox. A send becomes outbox jobs, one per channel, for the transports; a deferral becomes a job
/// that decides again when its time comes. A candidate's dedupe key is unique per user: however often a
/// trigger fires, on however many nodes, it is decided once.
public struct Notifications: JobOwner {
    let store: Store
    let rules: Rules
    let ids: IDGenerator
    let clock: WallClock
    let analytics: EventRecorder
    let signals = InboxSignals()

    /// The outbox: one job per notification and channel, run by the transports.
    public static let deliver = "notification.deliver"
    /// A deferred notification, decided again at the end of its wait.
    public static let redecide = "notification.redecide"
    /// A candidate raised inside another transaction (a badge, a series that brings the user close to the
    /// day's goal): queued with that change, decided once it is committed, never lost with a crash between.
    public static let raise = "notification.raise"

    public init(store: Store, rules: Rules, ids: IDGenerator, clock: WallClock, analytics: EventRecorder) {
        self.store = store
        self.rules = rules
        self.ids = ids
        self.clock = clock
        self.analytics = analytics
    }

    /// The app's types (an experiment may change a person's timing, caps and copy, never which types exist).
    public var catalog: NotificationCatalog { self.rules.base.notifications }

    // MARK: Preferences

    /// The user's preferences (the defaults until they change any).
    public func preferences(of user: User.ID) async throws -> NotificationPreferences {
        try await self.store.read { tx in try await tx.notifications.preferences(of: user) } ?? .defaults
    }

    /// Applies `change` to the stored preferences in one transaction under the user's lock, so concurrent
    /// saves each keep what they changed; saved when every field is valid (a critical type stays on). The
    /// rest of today's reminders are planned again with the new times.
    public func update(
        of user: User.ID,
        _ change: @Sendable (NotificationPreferences) throws -> NotificationPreferences
    ) async throws -> NotificationPreferences {
        let now = self.clock.now()
        return try await self.store.transaction { tx in
            guard let account = try await tx.users.locked(user) else {
                throw DomainError.notFound(resource: "user", id: user.rawValue)
            }
            let before = try await tx.notifications.preferences(of: user) ?? .defaults
            let updated = try change(before)
            try updated.validate(against: self.catalog)
            try await tx.notifications.save(updated, of: user, at: now)
            if updated != before {
                try await self.analytics.record(
                    .preferenceChanged,
                    key: "notifications:\(now.timeIntervalSince1970)",
                    of: account,
                    at: now,
                    properties: [
                        "scope": .string("notifications"),
                        "allOff": .boolean(!updated.push && !updated.email && !updated.inApp),
                    ],
                    in: tx
                )
            }
            try await ReminderPlanner.planRestOfToday(for: user, rules: self.rules, at: now, in: tx)
            return updated
        }
    }

    // MARK: Devices

    public func register(
        platform: PushDevice.Platform,
        token: String,
        environment: PushDevice.Environment,
        for user: User.ID
    ) async throws -> PushDevice {
        var validator = Validator()
        validator.check(
            !token.isEmpty && token.count <= 4_096 && !token.contains(where: \.isWhitespace),
            "token",
            "must be the device token the platform gave"
        )
        try validator.throwIfInvalid()
        let device = PushDevice(
            id: self.ids.make(),
            platform: platform,
            token: token,
            environment: environment,
            registeredAt: self.clock.now()
        )
        return try await self.store.transaction { tx in
            let registered = try await tx.notifications.register(device, of: user)
            try await tx.notifications.keepNewestDevices(Self.devicesPerPerson, of: user)
            return registered
        }
    }

    /// The active devices a person may have: registering one more stops the one registered longest ago.
    public static let devicesPerPerson = 20

    /// The user's active devices, the latest registered first.
    public func devices(of user: User.ID) async throws -> [PushDevice] {
        try await self.store.read { tx in try await tx.notifications.activeDevices(of: user) }.reversed()
    }

    public func deactivate(_ device: PushDevice.ID, of user: User.ID) async throws {
        guard try await self.store.transaction({ tx in try await tx.notifications.deactivateDevice(device, of: user) })
        else {
            throw DomainError.notFound(resource: "device", id: device.rawValue)
        }
    }

    // MARK: Deciding

    /// Decides about `candidate` for `user` and keeps the decision; a dedupe key decided before answers
    /// that first decision and changes nothing.
    public func notify(_ candidate: NotificationCandidate, to user: User.ID) async throws -> NotificationRecord {
        let now = self.clock.now()
        let record = try await self.store.transaction { tx in
            guard let account = try await tx.users.locked(user) else {
                throw DomainError.notFound(resource: "user", id: user.rawValue)
            }
            if let existing = try await tx.notifications.notification(withDedupeKey: candidate.dedupeKey, of: user) {
                return existing
            }
            let (record, jobs) = try await self.decide(candidate, id: self.ids.make(), for: account, in: tx, now: now)
            guard try await tx.notifications.insert(record, of: user) else { throw StoreError.conflict }
            try await tx.enqueue(jobs, at: now)
            try await Self.announceInbox(of: user, for: record, in: tx)
            return record
        }
        self.wakeInbox(of: user, for: record)
        return record
    }

    /// Whether the record lands in the app's inbox now.
    private static func landsInApp(_ record: NotificationRecord?) -> Bool {
        record.map { $0.status == .sent && $0.channels.contains(.inApp) } ?? false
    }

    /// Wakes the user's inbox streams on this node after an in-app send was committed.
    private func wakeInbox(of user: User.ID, for record: NotificationRecord?) {
        if Self.landsInApp(record) { self.signals.signal(user) }
    }

    /// Tells the other nodes, when the transaction commits, to wake the user's inbox streams (`received`).
    private static func announceInbox(of user: User.ID, for record: NotificationRecord?, in tx: Transaction)
        async throws
    {
        if Self.landsInApp(record) { try await tx.notify(InboxWake(inbox: user.rawValue).payload) }
    }

    /// A message from another node (`Engine.listen`): an inbox wake signals the user's streams here.
    func received(_ payload: String) {
        // Most messages are circle events: those are not decoded here at all.
        guard payload.hasPrefix(InboxWake.prefix),
            let wake = try? JSONDecoder().decode(InboxWake.self, from: Data(payload.utf8))
        else { return }
        self.signals.signal(User.ID(wake.inbox))
    }

    /// The listener missed messages (it reconnected): every open inbox stream looks again.
    func missedMessages() {
        self.signals.signalEveryone()
    }

    /// An operator's send: a catalog type to one user, through the same policy. Without a dedupe key it is
    /// once per user, type and local date.
    public func send(type: String, data: [String: String], dedupeKey: String?, to user: User.ID, by caller: Caller)
        async throws -> NotificationRecord
    {
        let account = try await self.store.read { tx in
            try await Operators.require(caller, in: tx, to: "send notifications", scope: .notifications)
            return try await tx.users.find(user)
        }
        guard let raised = RaisedType(rawValue: type), self.catalog[raised] != nil else {
            throw ValidationError(field: "type", reason: "is not a notification type of this app")
        }
        guard let account else { throw DomainError.notFound(resource: "user", id: user.rawValue) }
        let key = dedupeKey ?? "\(type):\(account.localDate(at: self.clock.now()).iso)"
        return try await self.notify(NotificationCandidate(type: raised, dedupeKey: key, data: data), to: user)
    }

    /// The job handlers of deciding (`Deliveries` runs `deliver`).
    public func registerJobs(in jobs: inout JobRegistry) throws(JobRegistry.Conflict) {
        try jobs.register(Self.redecide) { job in try await self.decideAgain(job) }
        try jobs.register(Self.raise) { job in
            let raised = try JSONDecoder().decode(Raised.self, from: Data(job.payload.utf8))
            _ = try await self.notify(raised.candidate, to: User.ID(raised.user))
        }
    }

    private struct Raised: Codable {
        var user: String
        var candidate: NotificationCandidate
    }

    /// The job that raises `candidate` for `user` when the caller's transaction commits, if the app's
    /// catalog has the type.
    static func raising(
        _ candidate: NotificationCandidate,
        for user: User.ID,
        catalog: NotificationCatalog,
        ids: IDGenerator,
        at now: Date
    ) throws -> JobRecord? {
        guard catalog[candidate.type] != nil else { return nil }
        return JobRecord(
            id: ids.make(JobRecord.self).rawValue,
            kind: Self.raise,
            payload: String(
                decoding: try JSONEncoder().encode(Raised(user: user.rawValue, candidate: candidate)),
                as: UTF8.self
            ),
            dedupeKey: "raise:\(user):\(candidate.dedupeKey)",
            runAt: now,
            maxAttempts: 8
        )
    }

    struct Reference: Codable {
        var user: String
        var notification: String
        var channel: String?
    }

    /// A deferred notification when its wait is over: the same rules again, with what is true now.
    private func decideAgain(_ job: JobRecord) async throws {
        let reference = try JSONDecoder().decode(Reference.self, from: Data(job.payload.utf8))
        let user = User.ID(reference.user)
        let now = self.clock.now()
        let decided = try await self.store.transaction { tx -> NotificationRecord? in
            guard let account = try await tx.users.locked(user),
                let stored = try await tx.notifications.notification(
                    NotificationRecord.ID(reference.notification),
                    of: user
                ),
                stored.status == .deferred,
                let type = RaisedType(rawValue: stored.type)
            else { return nil }
            let candidate = NotificationCandidate(type: type, dedupeKey: stored.dedupeKey, data: stored.data)
            var (record, jobs) = try await self.decide(candidate, id: stored.id, for: account, in: tx, now: now)
            record.trail = stored.trail + record.trail
            try await tx.notifications.redecide(record, of: user)
            try await tx.enqueue(jobs, at: now)
            try await Self.announceInbox(of: user, for: record, in: tx)
            return record
        }
        self.wakeInbox(of: user, for: decided)
    }

    private func decide(
        _ candidate: NotificationCandidate,
        id: NotificationRecord.ID,
        for user: User,
        in tx: Transaction,
        now: Date
    ) async throws -> (NotificationRecord, [JobRecord]) {
        let zone = TimeZone(identifier: user.profile.timeZone) ?? .gmt
        let today = user.localDate(at: now)
        let dayStart = today.start(in: zone)
        let weekStart = today.startOfWeek(startingOn: self.rules.base.week.startsOn).start(in: zone)
        let personal = try await self.rules.personal(user, in: tx, at: now)
        let catalog = personal.profile.notifications
        let sent = try await tx.notifications.sentNotifications(
            of: user.id,
            since: min(weekStart, now.addingTimeInterval(-3_600))
        )
        let nonCritical = sent.filter { !$0.critical }
        let ofType = sent.filter { $0.type == candidate.type }
        let context = NotificationContext(
            now: now,
            timeZone: zone,
            hasPushDevice: !(try await tx.notifications.activeDevices(of: user.id)).isEmpty,
            hasEmail: !user.email.hasSuffix(".invalid"),
            sentToday: nonCritical.filter { $0.decidedAt >= dayStart }.count,
            sentThisWeek: nonCritical.filter { $0.decidedAt >= weekStart }.count,
            sentOfTypeToday: ofType.filter { $0.decidedAt >= dayStart }.count,
            sentOfTypeThisWeek: ofType.filter { $0.decidedAt >= weekStart }.count,
            sentOfTypeLastHour: ofType.filter { $0.decidedAt >= now.addingTimeInterval(-3_600) }.count,
            lastActiveAt: try await tx.notifications.lastActivity(of: user.id),
            heldOut: !personal.engagementNotifications,
            blockedActor: try await self.blocked(candidate, for: user.id, in: tx)
        )
        let preferences = try await tx.notifications.preferences(of: user.id) ?? .defaults
        let (decision, trail) = NotificationPolicy.explain(
            candidate,
            catalog: catalog,
            preferences: preferences,
            context: context
        )
        let kind = catalog[candidate.type]
        let text: (title: String, body: String, deepLink: String?) =
            kind?.render(candidate.data) ?? (candidate.type, "", nil)
        var record = NotificationRecord(
            id: id,
            type: candidate.type,
            dedupeKey: candidate.dedupeKey,
            critical: kind?.critical ?? false,
            title: text.title,
            body: text.body,
            deepLink: text.deepLink,
            data: candidate.data,
            status: .dropped,
            reason: nil,
            channels: [],
            date: today,
            decidedAt: now,
            trail: trail
        )
        var jobs: [JobRecord] = []
        switch decision {
        case .sendNow(let channels):
            record.status = .sent
            record.channels = channels
            for channel in channels where channel != .inApp {
                jobs.append(try Self.deliveryJob(of: id, to: user.id, on: channel, at: now, ids: self.ids))
            }
        case .deferUntil(let instant, let reason):
            record.status = .deferred
            record.reason = reason
            record.deliverAt = instant
            jobs.append(
                try self.job(
                    Self.redecide,
                    for: Reference(user: user.id.rawValue, notification: id.rawValue),
                    key: "redecide:\(id):\(Int(instant.timeIntervalSince1970))",
                    at: instant
                )
            )
        case .drop(let reason):
            record.reason = reason
        }
        return (record, jobs)
    }

    /// Whether the person `candidate` is about and `user` have blocked one another (the policy drops it).
    private func blocked(_ candidate: NotificationCandidate, for user: User.ID, in tx: Transaction) async throws -> Bool
    {
        guard let actor = NotificationNaming.actor(in: candidate.data), actor != user else { return false }
        return try await tx.friends.areBlocked(user, actor)
    }

    /// The outbox job that hands notification `id` to the providers of one channel.
    static func deliveryJob(
        of id: NotificationRecord.ID,
        to user: User.ID,
        on channel: NotificationChannel,
        at now: Date,
        ids: IDGenerator
    ) throws -> JobRecord {
        JobRecord(
            id: ids.make(JobRecord.self).rawValue,
            kind: Self.deliver,
            payload: String(
                decoding: try JSONEncoder().encode(
                    Reference(user: user.rawValue, notification: id.rawValue, channel: channel.rawValue)
                ),
                as: UTF8.self
            ),
            dedupeKey: "deliver:\(id):\(channel.rawValue)",
            runAt: now,
            maxAttempts: Deliveries.attempts
        )
    }

    private func job(_ kind: String, for reference: Reference, key: String, at: Date, attempts: Int = 8) throws
        -> JobRecord
    {
        JobRecord(
            id: self.ids.make(JobRecord.self).rawValue,
            kind: kind,
            payload: String(decoding: try JSONEncoder().encode(reference), as: UTF8.self),
            dedupeKey: key,
            runAt: at,
            maxAttempts: attempts
        )
    }
}
