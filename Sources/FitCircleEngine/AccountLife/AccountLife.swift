public import FitCircleCore
public import FitCircleStore
public import Foundation

/// An account's whole life past sign-in (spec 004, R11.7): everything FitCircle holds about a person, to
/// take away, and the deletion that leaves nothing of them behind.
public struct AccountLife: Sendable {
    let store: Store
    let blobs: any BlobStore
    let circles: Circles
    let catalog: NotificationCatalog
    let clock: WallClock

    public init(store: Store, blobs: any BlobStore, circles: Circles, catalog: NotificationCatalog, clock: WallClock) {
        self.store = store
        self.blobs = blobs
        self.circles = circles
        self.catalog = catalog
        self.clock = clock
    }

    /// Deletes the caller's account, within 10 minutes of a sign-in (`AccountAccess`). In one transaction:
    /// the circles it owned pass to their heirs (or go, when nobody is left in them), every board drops its
    /// row on every node, its stakes leave the challenges' escrow (`tx.challenges.forget`), others' notifications that named it say "Deleted user", and its rows go — its
    /// sessions with them, so every token stops working at once, on every node (`StoreCache`'s tags). Its
    /// photo goes after the commit.
    public func delete(_ caller: Caller) async throws {
        let now = self.clock.now()
        let (user, events) = try await self.store.transaction { tx in
            guard let session = try await tx.sessions.session(caller.sessionID),
                let user = try await tx.users.locked(caller.userID)
            else {
                throw DomainError.unauthenticated(reason: "The account is gone.")
            }
            try AccountAccess.mayDelete(sessionStartedAt: session.createdAt, now: now).require("user", user.id.rawValue)
            let events = try await self.circles.erase(user.id, in: tx, at: now)
            try await tx.challenges.forget(user.id)
            for (_, record) in try await tx.accounts.notifications(naming: user.id) {
                try await tx.accounts.rewriteNaming(record.namingActor(.deleted, catalog: self.catalog))
            }
            try await tx.accounts.erase(user)
            return (user, events)
        }
        self.circles.published(events)
        // A photo that outlives this (the store failed) is unreachable: its key was on the deleted row.
        if let key = user.profile.photoKey { try? await self.blobs.delete(key) }
    }
}
