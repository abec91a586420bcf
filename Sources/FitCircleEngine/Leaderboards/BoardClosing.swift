public import FitCircleCore
public import FitCircleJobs
public import FitCircleStore
import Foundation

/// Closes the boards of the day that ended in each circle's home zone: at 00:31, once the home zone's
/// own members can no longer claim it, the final ranks of the day (and of the week or month that ended
/// with it, and the all-time board as of that day) are kept as snapshots: the baselines of the arrows and
/// the history. A later claim from a member further west retakes the snapshot it lands in.
public struct BoardClosing: JobOwner {
    public static let closeDay = "boards.close_day"
    public static let schedules = [ZoneSchedule(kind: Self.closeDay, hour: 0, minute: 31)]

    let store: Store
    let circles: Circles
    let clock: WallClock

    public init(store: Store, circles: Circles, clock: WallClock) {
        self.store = store
        self.circles = circles
        self.clock = clock
    }

    public func registerJobs(in jobs: inout JobRegistry) throws(JobRegistry.Conflict) {
        try jobs.register(Self.closeDay) { job in try await self.close(try ZoneBatch(job)) }
        jobs.schedule(Self.schedules)
    }

    /// Snapshots the boards that closed with the day before `batch.date` in its zone.
    func close(_ batch: ZoneBatch) async throws {
        let closed = batch.date.adding(days: -1)
        let now = self.clock.now()
        let keeper = self.circles.keeper
        try await self.store.transaction { tx in
            for circle in try await tx.boards.circles(inTimeZone: batch.zone, runningOn: closed) {
                for board in keeper.boards(of: circle, holding: closed) {
                    switch board.period {
                    case .allTime: try await tx.boards.snapshot(board, as: closed, at: now)
                    default:
                        if board.period.end(startingOn: board.start) == closed {
                            try await tx.boards.snapshot(board, as: board.start, at: now)
                        }
                    }
                }
            }
        }
    }
}
