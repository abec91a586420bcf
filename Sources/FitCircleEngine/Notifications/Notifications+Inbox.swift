public import FitCircleCore
public import FitCircleJobs
public import FitCircleStore
import Foundation

/// A person's notifications: their history, their in-app inbox and the marks they put on it.
extension Notifications {
    /// The user's notifications, newest first, a page at a time (`after`: the last of the page before; `next`
    /// is this page's last when there may be more).
    public func history(
        of user: User.ID,
        type: String?,
        channel: NotificationChannel?,
        after last: NotificationRecord.ID?,
        limit: Int
    ) async throws -> (items: [NotificationRecord], next: NotificationRecord.ID?) {
        guard Self.pageSizes.contains(limit) else {
            throw ValidationError(field: "limit", reason: "must be between 1 and 100")
        }
        let records = try await self.store.read { tx in
            try await self.namedNow(
                try await tx.notifications.list(of: user, type: type, channel: channel, after: last, limit: limit),
                of: user,
                in: tx
            )
        }
        return (records, records.count == limit ? records.last?.id : nil)
    }

    /// The in-app notifications sent, newest first, a page at a time, and how many are unread.
    public func inbox(of user: User.ID, after last: NotificationRecord.ID?, limit: Int) async throws -> (
        items: [NotificationRecord], next: NotificationRecord.ID?, unread: Int
    ) {
        guard Self.pageSizes.contains(limit) else {
            throw ValidationError(field: "limit", reason: "must be between 1 and 100")
        }
        return try await self.store.read { tx in
            let sent = try await tx.notifications.list(
                of: user,
                status: .sent,
                channel: .inApp,
                after: last,
                limit: limit
            )
            return (
                try await self.namedNow(sent, of: user, in: tx),
                sent.count == limit ? sent.last?.id : nil,
                try await tx.notifications.unreadCount(of: user, channel: .inApp)
            )
        }
    }

    /// How many in-app notifications sent to the user are unread: the inbox's count.
    public func unread(of user: User.ID) async throws -> Int {
        try await self.store.read { tx in try await tx.notifications.unreadCount(of: user, channel: .inApp) }
    }

    /// How many notifications a page of the inbox or the history may hold.
    static let pageSizes = 1...100

    public func notification(_ id: NotificationRecord.ID, of user: User.ID) async throws -> NotificationRecord {
        guard
            let record = try await self.store.read({ tx in
                try await self.namedNow(
                    try await tx.notifications.notification(id, of: user).map { [$0] } ?? [],
                    of: user,
                    in: tx
                )
                .first
            })
        else {
            throw DomainError.notFound(resource: "notification", id: id.rawValue)
        }
        return record
    }

    /// The records with the people they name as named now (`NotificationNaming`): what was sent cannot be
    /// taken back, but a rename or a deletion reaches the inbox and the history.
    private func namedNow(_ records: [NotificationRecord], of user: User.ID, in tx: Transaction) async throws
        -> [NotificationRecord]
    {
        let actors = Set(records.compactMap { NotificationNaming.actor(in: $0.data) })
        guard !actors.isEmpty else { return records }
        let people = try await tx.circles.people(Array(actors))
        let friends = people.values.contains { $0.nameAudience == .friends } ? try await tx.friends.ids(of: user) : []
        return records.map { record in
            guard let actor = NotificationNaming.actor(in: record.data) else { return record }
            guard let person = people[actor] else { return record.namingActor(.deleted, catalog: self.catalog) }
            guard NotificationNaming.boardTypes.contains(record.type) else {
                return record.namingActor(.named(person.name), catalog: self.catalog)
            }
            let relationship = ProfileAccess.Relationship(
                isSelf: actor == user,
                isFriend: friends.contains(actor),
                sharesCircle: true
            )
            let name = ProfileAccess.boardName(person.name, audience: person.nameAudience, relationship)
            return record.namingActor(name.map(NotificationNaming.Shown.named) ?? .anonymous, catalog: self.catalog)
        }
    }

    /// Records that the user read, opened or acted on a notification (the first time counts).
    public func mark(_ id: NotificationRecord.ID, _ mark: NotificationMark, by user: User.ID) async throws {
        let now = self.clock.now()
        let found = try await self.store.transaction { tx in
            guard try await tx.notifications.mark(id, of: user, mark, at: now) else { return false }
            // Opened and acted on are analytics events too (the first time counts, as the marks do).
            let event: ServerEvent? =
                switch mark {
                case .opened: .notificationOpened
                case .action: .notificationActed
                case .read: nil
                }
            if let event, let account = try await tx.users.find(user),
                let record = try await tx.notifications.notification(id, of: user)
            {
                let sent = record.deliverAt ?? record.decidedAt
                try await self.analytics.record(
                    event,
                    key: id.rawValue,
                    of: account,
                    at: now,
                    properties: [
                        "notificationId": .string(id.rawValue), "type": .string(record.type),
                        "minutes": .integer(max(0, Int(now.timeIntervalSince(sent) / 60))),
                    ],
                    in: tx
                )
            }
            return true
        }
        guard found else { throw DomainError.notFound(resource: "notification", id: id.rawValue) }
    }
}
