import FitCircleAPI
import FitCircleCore

extension Components.Schemas.NotificationPreferences {
    init(_ preferences: NotificationPreferences, catalog: NotificationCatalog) {
        self.init(
            push: preferences.push,
            email: preferences.email,
            inApp: preferences.inApp,
            reminderTime: preferences.reminderTime.description,
            quietHours: .init(start: preferences.quietStart.description, end: preferences.quietEnd.description),
            pauseWeekends: preferences.pauseWeekends,
            types: catalog.types.map { kind in
                func on(_ channel: NotificationChannel) -> Bool? {
                    kind.channels.contains(channel) ? preferences.typeSwitch(kind, on: channel) : nil
                }
                return .init(
                    _type: kind.type,
                    title: kind.title,
                    critical: kind.critical,
                    digestible: kind.digestible,
                    digest: preferences.digest.contains(kind.type),
                    channels: .init(push: on(.push), email: on(.email), inApp: on(.inApp))
                )
            }
        )
    }
}

extension NotificationPreferences {
    /// These preferences with what the request changes; a time that is not HH:MM is named.
    func applying(_ body: Components.Schemas.NotificationPreferencesInput) throws -> NotificationPreferences {
        var next = self
        var validator = Validator()
        func time(_ text: String?, _ field: String) -> LocalTime? {
            guard let text else { return nil }
            let time = LocalTime(text)
            validator.check(time != nil, field, "must be a time of day written HH:MM, such as 07:30")
            return time
        }
        if let push = body.push { next.push = push }
        if let email = body.email { next.email = email }
        if let inApp = body.inApp { next.inApp = inApp }
        if let pause = body.pauseWeekends { next.pauseWeekends = pause }
        if let reminder = time(body.reminderTime, "reminderTime") {
            next.reminderTime = reminder
            next.reminderTimeChosen = true
        }
        if let start = time(body.quietHours?.start, "quietHours.start") { next.quietStart = start }
        if let end = time(body.quietHours?.end, "quietHours.end") { next.quietEnd = end }
        for item in body.types ?? [] {
            var channels = next.types[item._type] ?? [:]
            if let push = item.channels?.push { channels[.push] = push }
            if let email = item.channels?.email { channels[.email] = email }
            if let inApp = item.channels?.inApp { channels[.inApp] = inApp }
            next.types[item._type] = channels
            if let digest = item.digest {
                if digest { next.digest.insert(item._type) } else { next.digest.remove(item._type) }
            }
        }
        try validator.throwIfInvalid()
        return next
    }
}

extension Components.Schemas.PushDevice {
    init(_ device: PushDevice) throws {
        self.init(
            id: device.id.rawValue,
            platform: try mapped(device.platform),
            environment: try mapped(device.environment),
            active: device.active,
            registeredAt: device.registeredAt
        )
    }
}

extension Components.Schemas.Notification {
    /// - Parameter deliveries: the attempts, for the history; nil leaves them out (the inbox, a send).
    init(_ record: NotificationRecord, deliveries: [DeliveryAttemptRecord]? = nil) throws {
        self.init(
            id: record.id.rawValue,
            _type: record.type,
            critical: record.critical,
            title: record.title,
            body: record.body,
            deepLink: record.deepLink,
            about: .init(
                circleId: record.about["circleId"],
                challengeId: record.about["challengeId"],
                invitationId: record.about["invitationId"],
                activityId: record.about["activityId"],
                actorId: record.about["actorId"]
            ),
            status: try mapped(record.status),
            reason: record.reason,
            channels: try record.channels.map { try mapped($0) },
            date: record.date.iso,
            decidedAt: record.decidedAt,
            deliverAt: record.deliverAt,
            readAt: record.readAt,
            openedAt: record.openedAt,
            actionAt: record.actionAt,
            deliveries: try deliveries?.map(Components.Schemas.DeliveryAttempt.init)
        )
    }
}

extension Components.Schemas.DeliveryAttempt {
    init(_ attempt: DeliveryAttemptRecord) throws {
        self.init(
            channel: try mapped(attempt.channel),
            target: attempt.target,
            provider: attempt.provider,
            attempt: attempt.attempt,
            outcome: try mapped(raw: attempt.outcome),
            reason: attempt.reason,
            status: attempt.status,
            latencyMs: attempt.latencyMilliseconds,
            attemptedAt: attempt.attemptedAt
        )
    }
}
