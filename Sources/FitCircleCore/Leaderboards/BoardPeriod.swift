/// The spans a circle's boards rank over (spec 000, Feature 3). Each rolls over at midnight in the circle's
/// home zone: days, weeks from the profile's first weekday, calendar months, and the whole competition.
public enum BoardPeriod: String, CaseIterable, Equatable, Hashable, Sendable, Codable {
    case daily
    case weekly
    case monthly
    case allTime = "all_time"

    /// The first day of the period holding `date`. The all-time board starts with the competition.
    public func start(of date: LocalDate, weekStart: Weekday, circleStart: LocalDate) -> LocalDate {
        switch self {
        case .daily: date
        case .weekly: date.startOfWeek(startingOn: weekStart)
        case .monthly: date.startOfMonth
        case .allTime: circleStart
        }
    }

    /// The last day of the period starting `start`; nil for all-time, which never ends.
    public func end(startingOn start: LocalDate) -> LocalDate? {
        switch self {
        case .daily: start
        case .weekly: start.adding(days: 6)
        case .monthly: start.adding(days: 40).startOfMonth.adding(days: -1)
        case .allTime: nil
        }
    }

    /// Whether the period starting `start` holds `date` (all-time: every date from its start on).
    public func holds(_ date: LocalDate, startingOn start: LocalDate) -> Bool {
        start <= date && self.end(startingOn: start).map { date <= $0 } ?? true
    }

    /// The key of the snapshot a live board's movement (▲▼) is measured against: the close of the period
    /// before (`start` is the live period's first day). The all-time board never closes; its baseline is the
    /// close of yesterday, kept under yesterday's date.
    public func baseline(ofPeriodStarting start: LocalDate, today: LocalDate) -> LocalDate {
        switch self {
        case .daily: start.adding(days: -1)
        case .weekly: start.adding(days: -7)
        case .monthly: start.adding(days: -1).startOfMonth
        case .allTime: today.adding(days: -1)
        }
    }
}

/// One board of a circle: a period and the day it starts.
public struct BoardID: Hashable, Sendable, Codable, CustomStringConvertible {
    public var circle: FitCircle.ID
    public var period: BoardPeriod
    public var start: LocalDate

    public init(circle: FitCircle.ID, period: BoardPeriod, start: LocalDate) {
        self.circle = circle
        self.period = period
        self.start = start
    }

    public var description: String { "\(self.circle)/\(self.period.rawValue)/\(self.start.iso)" }
}
