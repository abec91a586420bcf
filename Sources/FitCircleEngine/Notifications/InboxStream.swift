public import FitCircleCore
import FitCircleStore
import Foundation

/// One event of a user's inbox stream: a notification that just landed in the app (none for the opening
/// event), and how many are unread then.
public struct InboxUpdate: Sendable {
    public var notification: NotificationRecord?
    public var unread: Int
}

extension Notifications {
    /// How often an open stream looks again unwoken. Sends wake it at once, on this node directly and on
    /// others by NOTIFY; the look catches a wake lost in a way nobody noticed.
    static let inboxPoll: Duration = .seconds(30)

    /// The user's in-app notifications as they land, for `duration`: first the unread count, then each new
    /// one with the count then. A client that resumes names the last one it saw (`after`) and gets what
    /// landed since.
    public func inboxUpdates(of user: User.ID, after lastSeen: NotificationRecord.ID?, for duration: Duration)
        -> AsyncThrowingStream<InboxUpdate, any Error>
    {
        AsyncThrowingStream { continuation in
            let task = Task {
                // Subscribed before the first read, so nothing sent in between is missed.
                var generation = self.signals.subscribe(user)
                defer { self.signals.unsubscribe(user) }
                // Real time, not the injected clock: how long the connection stays open, not when anything happened.
                let deadline = ContinuousClock.now + duration
                do {
                    var since = self.clock.now()
                    var seen: Set<NotificationRecord.ID> = []
                    if let lastSeen,
                        let record = try await self.store.read({ tx in
                            try await tx.notifications.notification(lastSeen, of: user)
                        })
                    {
                        since = record.decidedAt
                        seen = [record.id]
                    } else {
                        // A fresh stream starts after what was decided at this very instant.
                        let from = since
                        seen = Set(
                            try await self.store.read { tx in
                                try await tx.notifications.notificationsSent(to: user, since: from, limit: 100)
                            }.map(\.id)
                        )
                    }
                    continuation.yield(
                        InboxUpdate(notification: nil, unread: try await self.unread(of: user))
                    )
                    while !Task.isCancelled {
                        let from = since
                        let landed = try await self.store.read { tx in
                            try await tx.notifications.notificationsSent(to: user, since: from, limit: 100)
                        }
                        .filter { $0.channels.contains(.inApp) && !seen.contains($0.id) }
                        if let newest = landed.last?.decidedAt {
                            let unread = try await self.unread(of: user)
                            for record in landed {
                                continuation.yield(InboxUpdate(notification: record, unread: unread))
                            }
                            // Instants can repeat: remember what was streamed at the newest one.
                            if newest > since {
                                since = newest
                                seen = []
                            }
                            seen.formUnion(landed.filter { $0.decidedAt == since }.map(\.id))
                        }
                        let left = deadline - ContinuousClock.now
                        guard left > .zero else { break }
                        generation = await self.signals.wait(
                            for: user,
                            since: generation,
                            timeout: min(left, Self.inboxPoll)
                        )
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
