public import FitCircleCore
public import FitCircleStore

/// What one recorded input earned, for the answer to the call that recorded it.
public struct Reward: Equatable, Sendable {
    /// The lines this input wrote: its own, the weekly rewards it completed and the badges it unlocked.
    public var lines: [PointsLine] = []
    public var series: Points.SeriesAward?
    /// "Daily cap reached. Push-ups still tracked but not rewarded." when reps went over the cap.
    public var message: String?
    public var badges: [UnlockedBadge] = []
    public var totalPoints = 0
    public var level = 1

    public var points: Int { self.lines.reduce(0) { $0 + $1.amount } }
}
