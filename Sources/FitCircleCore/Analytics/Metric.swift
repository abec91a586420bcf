/// One of the success figures an operator reads at `GET /api/admin/metrics` (spec 000's "Success
/// Metrics", spec 002's template share; issue 24). Each is kept per local day as a numerator and a
/// denominator by the daily rollup, so a report adds rows of days and never reads raw events.
public struct Metric: Equatable, Sendable {
    public var id: String
    public var name: String
    /// What it counts, as the API reference states it.
    public var definition: String
    public var kind: Kind
    /// Spec 000's target, as a share (0.35) or a count; nil when the spec sets none.
    public var target: Double?

    public enum Kind: String, CaseIterable, Sendable {
        /// numerator ÷ denominator, from 0 to 1; a period adds both up over its days.
        case share
        /// A number of users on a day (numerator); a period shows its days' average.
        case dailyCount
        /// A number of users over a trailing window ending on the day; a period shows its last day's.
        case windowCount
        /// numerator ÷ denominator, any size (sessions per user); a period adds both up.
        case ratio
        /// numerator ÷ denominator, from 0 to 1, over a trailing window ending on the day; a period shows
        /// its last day's.
        case windowShare
    }

    public init(id: String, name: String, definition: String, kind: Kind, target: Double? = nil) {
        self.id = id
        self.name = name
        self.definition = definition
        self.kind = kind
        self.target = target
    }

    /// The value of summed `numerator` and `denominator` (nil when nothing was counted).
    public func value(numerator: Double, denominator: Double, days: Int) -> Double? {
        switch self.kind {
        case .share, .ratio, .windowShare: denominator > 0 ? numerator / denominator : nil
        case .dailyCount: days > 0 ? numerator / Double(days) : nil
        case .windowCount: numerator
        }
    }
}
