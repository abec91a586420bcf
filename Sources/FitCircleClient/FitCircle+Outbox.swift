import FitCircleCore
public import Foundation

extension FitCircle {
    public typealias ActivityInput = Components.Schemas.ActivityInput

    /// Keeps the activity on the device (on disk before this returns) and sends it when the server can be
    /// reached. Its `clientEventId` is its id in the outbox; without a zone it takes the person's zone now.
    /// Answers the id.
    @discardableResult
    public func record(_ activity: ActivityInput) async throws -> String {
        try await self.record([activity])
        return activity.clientEventId
    }

    /// Keeps many activities with one write to the disk.
    public func record(_ activities: [ActivityInput]) async throws {
        try await self.enqueue(try await self.outboxItems(activities))
    }

    /// The outbox items of activities, each in the person's zone now unless it names one; the local day of
    /// each app open, in its zone, is noted for `localStreak` as the server will count it.
    func outboxItems(_ activities: [ActivityInput]) async throws -> [OutboxItem] {
        let zone = self.configuration.timeZone().identifier
        var items: [OutboxItem] = []
        var appOpenDays: [LocalDate] = []
        for var activity in activities {
            activity.timeZone = activity.timeZone ?? zone
            items.append(
                OutboxItem(
                    id: activity.clientEventId,
                    kind: .activity,
                    body: try OutboxCoding.encoder.encode(activity),
                    recordedAt: self.configuration.now()
                )
            )
            if activity._type == .appOpen, let zone = activity.timeZone.flatMap(TimeZone.init(identifier:)) {
                appOpenDays.append(LocalDate(activity.occurredAt, in: zone))
            }
        }
        await self.streakKeeper.noteAppOpens(on: appOpenDays)
        return items
    }

    /// Corrects an activity recorded before (the one with `activity.clientEventId`, on this device or
    /// another), sent when online after anything recorded before it. The server keeps the version edited
    /// last on any device (`modifiedAt`, now by default), so devices that edited it offline agree once all
    /// have synced. Its type cannot change; app opens and check-ins cannot be edited.
    @discardableResult
    public func edit(_ activity: ActivityInput, modifiedAt: Date? = nil) async throws -> String {
        var activity = activity
        activity.timeZone = activity.timeZone ?? self.configuration.timeZone().identifier
        return try await self.enqueue(
            kind: .edit,
            body: Components.Schemas.ActivityEdit(
                modifiedAt: modifiedAt ?? self.configuration.now(),
                activity: activity
            )
        )
    }

    /// Today's check-in (mood, energy, how yesterday felt), sent when online; answers its id.
    @discardableResult
    public func checkIn(_ checkIn: Components.Schemas.CheckInRequest) async throws -> String {
        try await self.enqueue(kind: .checkIn, body: checkIn)
    }

    /// A day's totals read from HealthKit, Google Fit or a wearable, sent when online; answers its id.
    @discardableResult
    public func syncDailyTotals(_ totals: Components.Schemas.DailySync) async throws -> String {
        var totals = totals
        totals.timeZone = totals.timeZone ?? self.configuration.timeZone().identifier
        return try await self.enqueue(kind: .dailyTotals, body: totals)
    }

    /// Submits a day's steps (`yyyy-MM-dd`, today when nil) to every circle, sent when online.
    @discardableResult
    public func submitSteps(for date: String? = nil) async throws -> String {
        try await self.enqueue(kind: .submission, body: OutboxSender.Day(date: date))
    }

    /// Reacts to a friend's workout, sent when online.
    @discardableResult
    public func react(_ reaction: String, to activityID: String) async throws -> String {
        try await self.enqueue(kind: .reaction, body: ["reaction": reaction], target: [activityID])
    }

    /// Takes a reaction back, sent when online.
    @discardableResult
    public func removeReaction(_ reaction: String, from activityID: String) async throws -> String {
        try await self.enqueue(kind: .reactionRemoval, body: [String: String](), target: [activityID, reaction])
    }

    private func enqueue(kind: OutboxItem.Kind, body: some Encodable, target: [String] = []) async throws -> String {
        let item = OutboxItem(
            kind: kind,
            body: try OutboxCoding.encoder.encode(body),
            target: target,
            recordedAt: self.configuration.now()
        )
        try await self.enqueue([item])
        return item.id
    }

    private func enqueue(_ items: [OutboxItem]) async throws {
        try await self.outbox.add(items)
        await self.synchronizer.recorded()
    }

    // MARK: Sync

    /// Sends everything waiting, now, once. Throws what stopped it (the outbox is then as it was, less what
    /// the server acknowledged).
    public func sync() async throws {
        try await self.synchronizer.sync()
    }

    /// Sends in the background from now on: soon after each record, and after a failure again and again with
    /// a growing wait. Call when the app comes to the foreground (and `stopSyncing` when it leaves).
    public func startSyncing() async {
        await self.synchronizer.start()
    }

    public func stopSyncing() async {
        await self.synchronizer.stop()
    }

    /// The "Retry" button: ends the background sync's wait.
    public func retryNow() async {
        await self.synchronizer.retryNow()
    }

    public var syncStatus: SyncStatus {
        get async { await self.synchronizer.current }
    }

    /// The status now, then each change: for a "pending uploads" indicator.
    public func syncStatusUpdates() async -> AsyncStream<SyncStatus> {
        await self.synchronizer.updates()
    }
}

extension Components.Schemas.ActivityInput {
    /// Steps counted since the previous record, e.g. from the pedometer.
    public static func steps(
        _ steps: Int,
        at date: Date,
        source: Components.Schemas.ActivitySource = .app,
        id: String = UUID().uuidString
    ) -> Self {
        Self(clientEventId: id, _type: .steps, occurredAt: date, source: source, steps: steps)
    }

    public static func workout(
        _ type: Components.Schemas.WorkoutType,
        duration: TimeInterval,
        distanceMeters: Double? = nil,
        calories: Double? = nil,
        at date: Date,
        source: Components.Schemas.ActivitySource = .app,
        id: String = UUID().uuidString
    ) -> Self {
        Self(
            clientEventId: id,
            _type: .workout,
            occurredAt: date,
            source: source,
            workout: .init(_type: type, durationSeconds: duration, distanceMeters: distanceMeters, calories: calories)
        )
    }

    public static func weight(kilograms: Double, at date: Date, id: String = UUID().uuidString) -> Self {
        Self(clientEventId: id, _type: .weight, occurredAt: date, source: .manual, weightKg: kilograms)
    }

    public static func water(milliliters: Double, at date: Date, id: String = UUID().uuidString) -> Self {
        Self(clientEventId: id, _type: .water, occurredAt: date, source: .manual, waterMl: milliliters)
    }

    /// The app was opened: what the app-open streak counts.
    public static func appOpen(at date: Date, id: String = UUID().uuidString) -> Self {
        Self(clientEventId: id, _type: .appOpen, occurredAt: date, source: .app)
    }
}
