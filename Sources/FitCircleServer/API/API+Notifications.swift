import FitCircleAPI
import FitCircleCore
import FitCircleEngine
import OpenAPIRuntime

extension API {
    func getNotificationPreferences(_ input: Operations.GetNotificationPreferences.Input) async throws
        -> Operations.GetNotificationPreferences.Output
    {
        let caller = try RequestCaller.required()
        let preferences = try await self.engine.notifications.preferences(of: caller.userID)
        return .ok(.init(body: .json(.init(preferences, catalog: self.engine.notifications.catalog))))
    }

    func changeNotificationPreferences(
        _ input: Operations.ChangeNotificationPreferences.Input
    ) async throws -> Operations.ChangeNotificationPreferences.Output {
        guard case .json(let body) = input.body else {
            throw DomainError.unsupportedMediaType(accepted: ["application/json"])
        }
        return .ok(.init(body: .json(try await self.changedNotificationPreferences(body))))
    }

    /// Spec 000's path, deprecated: it merges as `changeNotificationPreferences` does.
    func updateNotificationPreferences(
        _ input: Operations.UpdateNotificationPreferences.Input
    ) async throws -> Operations.UpdateNotificationPreferences.Output {
        guard case .json(let body) = input.body else {
            throw DomainError.unsupportedMediaType(accepted: ["application/json"])
        }
        return .ok(.init(body: .json(try await self.changedNotificationPreferences(body))))
    }

    private func changedNotificationPreferences(
        _ body: Components.Schemas.NotificationPreferencesInput
    ) async throws -> Components.Schemas.NotificationPreferences {
        let saved = try await self.engine.notifications.update(of: try RequestCaller.required().userID) { current in
            try current.applying(body)
        }
        return .init(saved, catalog: self.engine.notifications.catalog)
    }

    func listDevices(_ input: Operations.ListDevices.Input) async throws -> Operations.ListDevices.Output {
        let devices = try await self.engine.notifications.devices(of: try RequestCaller.required().userID)
        return .ok(.init(body: .json(.init(items: try devices.map(Components.Schemas.PushDevice.init)))))
    }

    func createDevice(_ input: Operations.CreateDevice.Input) async throws -> Operations.CreateDevice.Output {
        guard case .json(let body) = input.body else {
            throw DomainError.unsupportedMediaType(accepted: ["application/json"])
        }
        return .created(.init(body: .json(try await self.registered(body))))
    }

    /// Spec 000's path for `createDevice`, deprecated.
    func registerDevice(_ input: Operations.RegisterDevice.Input) async throws -> Operations.RegisterDevice.Output {
        guard case .json(let body) = input.body else {
            throw DomainError.unsupportedMediaType(accepted: ["application/json"])
        }
        return .created(.init(body: .json(try await self.registered(body))))
    }

    private func registered(_ body: Components.Schemas.DeviceRegistration) async throws
        -> Components.Schemas.PushDevice
    {
        let device = try await self.engine.notifications.register(
            platform: (try mapped(body.platform) as PushDevice.Platform),
            token: body.token,
            environment: body.environment.flatMap { PushDevice.Environment(rawValue: $0.rawValue) } ?? .production,
            for: try RequestCaller.required().userID
        )
        return try .init(device)
    }

    func deactivateDevice(_ input: Operations.DeactivateDevice.Input) async throws -> Operations.DeactivateDevice.Output
    {
        try await self.engine.notifications.deactivate(
            PushDevice.ID(input.path.id),
            of: try RequestCaller.required().userID
        )
        return .noContent(.init())
    }

    func getNotificationInbox(_ input: Operations.GetNotificationInbox.Input) async throws
        -> Operations.GetNotificationInbox.Output
    {
        let inbox = try await self.engine.notifications.inbox(
            of: try RequestCaller.required().userID,
            after: try input.query.cursor.map { NotificationRecord.ID(try PageCursor.id($0, of: .notifications)) },
            limit: input.query.limit ?? 30
        )
        return .ok(
            .init(
                body: .json(
                    .init(
                        items: try inbox.items.map { try Components.Schemas.Notification($0) },
                        nextCursor: inbox.next.map { PageCursor.encode(.notifications, $0.rawValue) },
                        unread: inbox.unread
                    )
                )
            )
        )
    }

    func streamNotificationInbox(_ input: Operations.StreamNotificationInbox.Input) async throws
        -> Operations.StreamNotificationInbox.Output
    {
        let seconds = input.query.seconds ?? 300
        guard (1...3_600).contains(seconds) else {
            throw ValidationError(field: "seconds", reason: "must be between 1 and 3600")
        }
        let caller = try RequestCaller.required()
        let body = try await self.streams.body(of: caller, accounts: self.engine.accounts, for: .seconds(seconds)) {
            self.engine.notifications.inboxUpdates(
                of: caller.userID,
                after: input.headers.lastEventID.map(NotificationRecord.ID.init),
                for: .seconds(seconds)
            )
        } encode: { update in
            let data = Components.Schemas.InboxEvent(
                notification: try update.notification.map { try Components.Schemas.Notification($0) },
                unread: update.unread
            )
            return [
                try LiveEvents.event(
                    id: update.notification?.id.rawValue,
                    event: update.notification == nil ? "unread" : "notification",
                    json: data
                )
            ]
        }
        return .ok(.init(body: .textEventStream(body)))
    }

    func getNotificationHistory(_ input: Operations.GetNotificationHistory.Input) async throws
        -> Operations.GetNotificationHistory.Output
    {
        let (items, next) = try await self.engine.notifications.history(
            of: try RequestCaller.required().userID,
            type: input.query._type,
            channel: input.query.channel.flatMap { NotificationChannel(rawValue: $0.rawValue) },
            after: try input.query.cursor.map { NotificationRecord.ID(try PageCursor.id($0, of: .notifications)) },
            limit: input.query.limit ?? 30
        )
        let attempts = try await self.engine.deliveries.attempts(of: items.map(\.id))
        return .ok(
            .init(
                body: .json(
                    .init(
                        items: try items.map {
                            try Components.Schemas.Notification($0, deliveries: attempts[$0.id] ?? [])
                        },
                        nextCursor: next.map { PageCursor.encode(.notifications, $0.rawValue) }
                    )
                )
            )
        )
    }

    func getNotificationWhy(_ input: Operations.GetNotificationWhy.Input) async throws
        -> Operations.GetNotificationWhy.Output
    {
        let record = try await self.engine.notifications.notification(
            NotificationRecord.ID(input.path.id),
            of: try RequestCaller.required().userID
        )
        let attempts = try await self.engine.deliveries.attempts(of: [record.id])[record.id] ?? []
        return .ok(
            .init(
                body: .json(
                    .init(
                        notification: try .init(record),
                        trail: record.trail,
                        deliveries: try attempts.map(Components.Schemas.DeliveryAttempt.init)
                    )
                )
            )
        )
    }

    func markNotification(_ input: Operations.MarkNotification.Input) async throws -> Operations.MarkNotification.Output
    {
        let mark: NotificationMark =
            switch input.path.event {
            case .read: .read
            case .opened: .opened
            case .action: .action
            }
        try await self.engine.notifications.mark(
            NotificationRecord.ID(input.path.id),
            mark,
            by: try RequestCaller.required().userID
        )
        return .noContent(.init())
    }

    func sendNotification(_ input: Operations.SendNotification.Input) async throws -> Operations.SendNotification.Output
    {
        guard case .json(let body) = input.body else {
            throw DomainError.unsupportedMediaType(accepted: ["application/json"])
        }
        let record = try await self.engine.notifications.send(
            type: body._type,
            data: body.data?.additionalProperties ?? [:],
            dedupeKey: body.dedupeKey,
            to: User.ID(body.userId),
            by: try RequestCaller.required()
        )
        return .ok(.init(body: .json(try .init(record))))
    }
}
