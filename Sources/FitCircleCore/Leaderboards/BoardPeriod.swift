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

/// Whose board it is: a circle's (over named periods in its home zone) or a challenge's (its one fixed
/// span, kept as its all-time board from its first day). One engine ranks, indexes and streams both.
public enum BoardOwner: Hashable, Sendable, Codable, CustomStringConvertible {
    case circle(FitCircle.ID)
    case challenge(Challenge.ID)

    /// How the owner is stored beside its id (`board_scores.owner_kind`).
    public enum Kind: String, Sendable { case circle, challenge }

    public var kind: Kind {
        switch self {
        case .circle: .circle
        case .challenge: .challenge
        }
    }

    public var id: String {
        switch self {
        case .circle(let id): id.rawValue
        case .challenge(let id): id.rawValue
        }
    }

    public init(kind: Kind, id: String) {
        switch kind {
        case .circle: self = .circle(FitCircle.ID(id))
        case .challenge: self = .challenge(Challenge.ID(id))
        }
    }

    public var description: String { "\(self.kind.rawValue):\(self.id)" }
}

/// One board: its owner, a period and the day it starts.
public struct BoardID: Hashable, Sendable, Codable, CustomStringConvertible {
    public var owner: BoardOwner
    public var period: BoardPeriod
    public var start: LocalDate

    public init(owner: BoardOwner, period: BoardPeriod, start: LocalDate) {
        self.owner = owner
        self.period = period
        self.start = start
    }

    public init(circle: FitCircle.ID, period: BoardPeriod, start: LocalDate) {
        self.init(owner: .circle(circle), period: period, start: start)
    }

    /// A challenge's one board, from its first day (in its creator's zone) to its end.
    public init(challenge: Challenge.ID, start: LocalDate) {
        self.init(owner: .challenge(challenge), period: .allTime, start: start)
    }

    /// The same owner and period from another day (a snapshot's key, a baseline).
    public func starting(_ start: LocalDate) -> BoardID {
        BoardID(owner: self.owner, period: self.period, start: start)
    }

    public var description: String { "\(self.owner)/\(self.period.rawValue)/\(self.start.iso)" }
}
