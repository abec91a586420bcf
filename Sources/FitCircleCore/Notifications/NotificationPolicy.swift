public import Foundation

/// A notification some trigger wants to send.
public struct NotificationCandidate: Equatable, Sendable, Codable {
    /// A `RaisedType`'s name (kept as text: candidates are stored and read back).
    public var type: String
    /// One per user, type and local date (or per trigger event): the same candidate is never sent twice.
    public var dedupeKey: String
    public var data: [String: String]
    /// The trigger knows the day's goal (or check-in) is already done.
    public var goalMet: Bool
    /// The local day a day's reminder is about (today's check-in, today's steps): once that day is over
    /// where the user is, it says nothing true, however late it was made up or however long quiet hours
    /// held it. Nil for news of an event, which stays news.
    public var day: LocalDate?

    /// `actor`: the person the copy names (who reacted, invited, overtook), kept in `data` under
    /// `NotificationNaming.actorKey` so the name can be read again when shown, and erased with them.
    public init(
        type: RaisedType,
        dedupeKey: String,
        data: [String: String] = [:],
        actor: User.ID? = nil,
        goalMet: Bool = false,
        day: LocalDate? = nil
    ) {
        self.type = type.rawValue
        self.dedupeKey = dedupeKey
        self.data = data
        self.goalMet = goalMet
        self.day = day
        if let actor { self.data[NotificationNaming.actorKey] = actor.rawValue }
    }
}

/// What the policy knows about the user when it decides.
public struct NotificationContext: Equatable, Sendable {
    public var now: Date
    public var timeZone: TimeZone
    public var hasPushDevice: Bool
    public var hasEmail: Bool
    /// Non-critical notifications sent this local day and week, all types.
    public var sentToday: Int
    public var sentThisWeek: Int
    /// Of this type: this local day, this week, the last hour.
    public var sentOfTypeToday: Int
    public var sentOfTypeThisWeek: Int
    public var sentOfTypeLastHour: Int
    public var goalMetToday: Bool
    public var lastActiveAt: Date?
    /// The user is in an experiment's hold-out group that gets no engagement (non-critical) notifications.
    public var heldOut: Bool
    /// The person the notification is about and the user have blocked one another (either way).
    public var blockedActor: Bool

    public init(
        now: Date,
        timeZone: TimeZone,
        hasPushDevice: Bool = true,
        hasEmail: Bool = true,
        sentToday: Int = 0,
        sentThisWeek: Int = 0,
        sentOfTypeToday: Int = 0,
        sentOfTypeThisWeek: Int = 0,
        sentOfTypeLastHour: Int = 0,
        goalMetToday: Bool = false,
        lastActiveAt: Date? = nil,
        heldOut: Bool = false,
        blockedActor: Bool = false
    ) {
        self.blockedActor = blockedActor
        self.now = now
        self.timeZone = timeZone
        self.hasPushDevice = hasPushDevice
        self.hasEmail = hasEmail
        self.sentToday = sentToday
        self.sentThisWeek = sentThisWeek
        self.sentOfTypeToday = sentOfTypeToday
        self.sentOfTypeThisWeek = sentOfTypeThisWeek
        self.sentOfTypeLastHour = sentOfTypeLastHour
        self.goalMetToday = goalMetToday
        self.lastActiveAt = lastActiveAt
        self.heldOut = heldOut
    }
}

/// What becomes of a candidate, and why.
public enum NotificationDecision: Equatable, Sendable {
    case sendNow([NotificationChannel])
    case deferUntil(Date, reason: String)
    case drop(reason: String)
}

/// The decision, pure. The rules apply in this order, and the first that decides wins:
/// 1. an unknown type is dropped, and so is a non-critical one for a user an experiment holds out, any
///    about someone the user blocked or who blocked them (a block acts everywhere, spec 004), and a day's
///    reminder whose day is over where the user is;
/// 2. channels: the type's channels the user allows (a critical type ignores the per-type switches, and
///    keeps the in-app channel whatever the master switches say); push needs a device, else email when
///    the type falls back to it; none left → dropped;
/// 3. quiet hours defer to the window's end (never drop, critical included) — but a day's reminder whose
///    day would be over by then is dropped;
/// 4. the weekend pause drops non-critical types on Saturday and Sunday;
/// 5. "goal already met" drops types that remind of it;
/// 6. a user active in the app in the last 15 minutes gets a non-critical type in the app only (dropped
///    when the type has no in-app channel): no push or email interrupts someone who is already there;
/// 7. the type's caps (per hour, day, week) drop;
/// 8. the shared budget (non-critical per day and week) drops, except summaries (`outsideBudget`);
/// 9. a type the user gathers into a digest is deferred to their reminder time;
/// 10. otherwise it is sent now.
public enum NotificationPolicy {
    public static let activeWindow: TimeInterval = 15 * 60

    public static func decide(
        _ candidate: NotificationCandidate,
        catalog: NotificationCatalog,
        preferences: NotificationPreferences,
        context: NotificationContext
    ) -> NotificationDecision {
        self.explain(candidate, catalog: catalog, preferences: preferences, context: context).decision
    }

    /// The decision with the trail of rules it went through ("why did I (not) get this?").
    public static func explain(
        _ candidate: NotificationCandidate,
        catalog: NotificationCatalog,
        preferences: NotificationPreferences,
        context: NotificationContext
    ) -> (decision: NotificationDecision, trail: [String]) {
        var trail: [String] = []
        let decision = Self.decide(
            candidate,
            catalog: catalog,
            preferences: preferences,
            context: context,
            trail: &trail
        )
        switch decision {
        case .sendNow(let channels): trail.append("sent now by \(channels.map(\.rawValue).joined(separator: ", "))")
        case .deferUntil(let instant, let reason):
            trail.append("deferred until \(instant.formatted(.iso8601)): \(reason)")
        case .drop(let reason): trail.append("dropped: \(reason)")
        }
        return (decision, trail)
    }

    private static func decide(
        _ candidate: NotificationCandidate,
        catalog: NotificationCatalog,
        preferences: NotificationPreferences,
        context: NotificationContext,
        trail: inout [String]
    ) -> NotificationDecision {
        guard let kind = catalog[candidate.type] else { return .drop(reason: "unknown type '\(candidate.type)'") }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = context.timeZone
        let local = LocalTime(context.now, in: context.timeZone)
        let weekday = calendar.component(.weekday, from: context.now)
        trail.append(
            "'\(kind.type)'\(kind.critical ? ", critical" : ""), at \(local) in \(context.timeZone.identifier)"
        )
        if context.heldOut && !kind.critical {
            return .drop(reason: "held out: the user's experiment variant gets no engagement notifications")
        }
        if context.blockedActor {
            return .drop(reason: "blocked: the person it is about and the user have blocked one another")
        }
        if let day = candidate.day, LocalDate(context.now, in: context.timeZone) > day {
            return .drop(reason: "its day (\(day.iso)) is over where the user is")
        }

        var channels = kind.channels.filter { preferences.delivers(kind, on: $0) }
        if !context.hasPushDevice { channels.removeAll { $0 == .push } }
        // Push cannot reach the user (no device, or they switched push off): a type with the fallback goes
        // by email instead, if their email switches let it (spec 000 F7: "As a user who disabled push, I
        // want email reminders").
        if kind.channels.contains(.push) && !channels.contains(.push) && kind.emailFallback
            && preferences.delivers(kind, on: .email)
            && !channels.contains(.email)
        {
            channels.append(.email)
            trail.append("push cannot reach the user: by email instead")
        }
        if !context.hasEmail { channels.removeAll { $0 == .email } }
        channels = NotificationChannel.allCases.filter(channels.contains)
        guard !channels.isEmpty else {
            return .drop(reason: "no channel left: the user turned them off or has no device")
        }
        trail.append("channels allowed and reachable: \(channels.map(\.rawValue).joined(separator: ", "))")

        if preferences.isQuiet(at: local) {
            let end = Self.next(preferences.quietEnd, after: context.now, calendar: calendar)
            if let day = candidate.day, LocalDate(end, in: context.timeZone) > day {
                return .drop(reason: "quiet hours until \(preferences.quietEnd) outlast its day (\(day.iso))")
            }
            return .deferUntil(end, reason: "quiet hours until \(preferences.quietEnd)")
        }
        trail.append("outside quiet hours (\(preferences.quietStart)–\(preferences.quietEnd))")
        if !kind.critical && preferences.pauseWeekends && (weekday == 1 || weekday == 7) {
            return .drop(reason: "non-critical notifications are paused on weekends")
        }
        if kind.unlessGoalMet && (candidate.goalMet || context.goalMetToday) {
            return .drop(reason: "the day's goal is already met")
        }
        if !kind.critical, let active = context.lastActiveAt, context.now.timeIntervalSince(active) < Self.activeWindow,
            active <= context.now
        {
            if kind.unlessActive {
                return .drop(reason: "the user was in the app in the last 15 minutes and has seen it there")
            }
            guard channels.contains(.inApp) else {
                return .drop(reason: "the user was active in the app in the last 15 minutes")
            }
            channels = [.inApp]
            trail.append("active in the app in the last 15 minutes: in the app only")
        }
        for (limit, sent, span) in [
            (kind.perHour, context.sentOfTypeLastHour, "hour"), (kind.perDay, context.sentOfTypeToday, "day"),
            (kind.perWeek, context.sentOfTypeThisWeek, "week"),
        ] {
            if let limit, sent >= limit { return .drop(reason: "at most \(limit) '\(kind.type)' a \(span)") }
        }
        trail.append("within the type's caps")
        if !kind.critical && !kind.outsideBudget {
            if context.sentToday >= catalog.nonCriticalPerDay {
                return .drop(reason: "the day's budget of \(catalog.nonCriticalPerDay) is spent")
            }
            if context.sentThisWeek >= catalog.nonCriticalPerWeek {
                return .drop(reason: "the week's budget of \(catalog.nonCriticalPerWeek) is spent")
            }
        }
        if !kind.critical {
            trail.append("within the budget: \(context.sentToday) of \(catalog.nonCriticalPerDay) today")
        }
        if kind.digestible && preferences.digest.contains(kind.type) && local != preferences.reminderTime {
            return .deferUntil(
                Self.next(preferences.reminderTime, after: context.now, calendar: calendar),
                reason: "gathered into the digest"
            )
        }
        return .sendNow(channels)
    }

    /// The next instant at or after `now` when the local clock shows `time` (DST gaps resolve forward).
    static func next(_ time: LocalTime, after now: Date, calendar: Calendar) -> Date {
        let today = LocalDate(now, in: calendar.timeZone)
        return [today, today.adding(days: 1), today.adding(days: 2)].lazy.compactMap {
            $0.instant(at: time, in: calendar.timeZone)
        }.first { $0 >= now } ?? now
    }
}
