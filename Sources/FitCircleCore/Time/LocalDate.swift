public import Foundation

/// A calendar day in one person's time zone (`2026-11-22`). Days, weeks and caps count these, never instants.
public struct LocalDate: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// A valid Gregorian date; `nil` for `2026-02-30` and the like.
    public init?(year: Int, month: Int, day: Int) {
        var components = DateComponents(year: year, month: month, day: day)
        components.calendar = Self.utcCalendar
        guard (1...9999).contains(year), components.isValidDate else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// The day `instant` falls on in `timeZone`, by Foundation's calendar (DST and odd offsets included).
    public init(_ instant: Date, in timeZone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: instant)
        self.year = parts.year!
        self.month = parts.month!
        self.day = parts.day!
    }

    /// Parses `YYYY-MM-DD`.
    public init?(iso text: some StringProtocol) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    public var iso: String {
        String(format: "%04d-%02d-%02d", self.year, self.month, self.day)
    }

    public var description: String { self.iso }

    /// Days since 1970-01-01; differences of ordinals count calendar days whatever the zone did.
    public var ordinal: Int {
        Int((self.utcMidnight.timeIntervalSince1970 / 86_400).rounded())
    }

    public init(ordinal: Int) {
        self = LocalDate(Date(timeIntervalSince1970: Double(ordinal) * 86_400), in: TimeZone(identifier: "UTC")!)
    }

    public func adding(days: Int) -> LocalDate { LocalDate(ordinal: self.ordinal + days) }

    public func days(since other: LocalDate) -> Int { self.ordinal - other.ordinal }

    /// The instant this day starts in `timeZone` (not always 00:00: some zones skip midnight at DST).
    public func start(in timeZone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar.startOfDay(for: calendar.date(from: DateComponents(year: self.year, month: self.month, day: self.day, hour: 12))!)
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let date = LocalDate(iso: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "expected YYYY-MM-DD, found \(text)"))
        }
        self = date
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(self.iso)
    }

    private var utcMidnight: Date {
        Self.utcCalendar.date(from: DateComponents(year: self.year, month: self.month, day: self.day))!
    }

    private static let utcCalendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()
}

extension LocalDate {
    /// The day of the week (1970-01-01 was a Thursday).
    public var weekday: Weekday {
        let days: [Weekday] = [.thursday, .friday, .saturday, .sunday, .monday, .tuesday, .wednesday]
        return days[((self.ordinal % 7) + 7) % 7]
    }

    /// The first day of the week holding this date, for weeks that start on `first`.
    public func startOfWeek(startingOn first: Weekday) -> LocalDate {
        let order = Weekday.allCases
        let offset = (order.firstIndex(of: self.weekday)! - order.firstIndex(of: first)! + 7) % 7
        return self.adding(days: -offset)
    }

    /// The first day of this date's month.
    public var startOfMonth: LocalDate { LocalDate(year: self.year, month: self.month, day: 1)! }
}

extension LocalDate {
    /// The dates a `from`/`to` query asks for: by default the `defaultDays` ending `today`; at most
    /// `maximumDays` in all.
    public static func queried(
        from: LocalDate?, to: LocalDate?, today: LocalDate, defaultDays: Int = 7, maximumDays: Int = 366
    ) throws -> (first: LocalDate, last: LocalDate) {
        let last = to ?? today
        let first = from ?? last.adding(days: -(defaultDays - 1))
        var validator = Validator()
        validator.check(first <= last, "from", "must not be after to")
        validator.check(last.days(since: first) < maximumDays, "to", "must be at most \(maximumDays) days after from")
        try validator.throwIfInvalid()
        return (first, last)
    }
}
