public import FitCircleCore
public import FitCircleJobs
public import FitCircleStore
import Foundation

/// A person's notifications: their history, their in-app inbox and the marks they put on it.
extension Notifications {
    public func history(of user: User.ID, type: String?, channel: NotificationChannel?, limit: Int) async throws
        -> [NotificationRecord]
    {
        guard (1...100).contains(limit) else {
            throw ValidationError(field: "limit", reason: "must be between 1 and 100")
        }
        let records = try await self.store.read { tx in
            try await self.namedNow(
                try await tx.notifications.list(of: user, type: type, limit: channel == nil ? limit : 500),
                of: user,
                in: tx
            )
        }
        return Array(records.filter { record in channel.map { record.channels.contains($0) } ?? true }.prefix(limit))
    }

    /// The in-app notifications sent, newest first, and how many are unread.
    public func inbox(of user: User.ID, limit: Int) async throws -> (items: [NotificationRecord], unread: Int) {
        guard (1...100).contains(limit) else {
            throw ValidationError(field: "limit", reason: "must be between 1 and 100")
        }
        let (items, unread) = try await self.store.read { tx in
            let sent = try await tx.notifications.list(of: user, status: .sent, limit: 500).filter {
                $0.channels.contains(.inApp)
            }
            return (
                try await self.namedNow(Array(sent.prefix(limit)), of: user, in: tx),
                sent.filter { $0.readAt == nil }.count
            )
        }
        return (items, unread)
    }

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
