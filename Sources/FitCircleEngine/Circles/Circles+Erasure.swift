public import FitCircleCore
public import FitCircleStore
public import Foundation

/// A deleted account's place in circles: it leaves each as a member would (an owner hands the circle to
/// the heir), a circle nobody is left in goes with it, and every board it was on (a circle's or a
/// challenge's) drops its row, on every node (the events' board changes).
extension Circles {
    /// Run in the deleting transaction, before the account's rows go; publish the events after it commits.
    public func erase(_ user: User.ID, in tx: Transaction, at now: Date) async throws -> [BoardEvent] {
        for (circle, role) in try await tx.circles.list(of: user) {
            guard let locked = try await tx.circles.locked(circle.id) else { continue }
            try await self.depart(user, as: role, from: locked, in: tx, at: now)
        }
        for circle in try await tx.accounts.circles(ownedBy: user) {
            try await tx.accounts.deleteCircle(circle.id)
        }
        let boards = Dictionary(grouping: try await tx.accounts.boards(holding: user), by: \.owner)
        let events = boards.map { owner, boards in
            self.events.event(
                owner,
                changes: boards.map { BoardChange(board: $0, user: user, key: nil) },
                ranks: [],
                feed: []
            )
        }
        try await self.events.send(events, in: tx)
        return events
    }

    /// Applies the events of a committed deletion to this node's boards and streams.
    public func published(_ events: [BoardEvent]) {
        self.events.publish(events)
    }
}
