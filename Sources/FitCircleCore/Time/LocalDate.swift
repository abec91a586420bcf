public import Foundation

/// A calendar day in one person's time zone (`2026-11-22`). Days, weeks and caps count these, never instants.
public struct LocalDate: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// A valid Gregorian date; `nil` for `2026-02-30` and the like.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
            (1...CivilCalendar.days(inMonth: month, of: year)).contains(day)
        else {
            return nil
        }
        self.year = year
        self.month = month
        self.day = day
    }

    /// A date that always exists: the month clamped to 1–12 and the day to the month's days (`2026-02-30`
    /// is the 28th). For dates made from parts known to be valid, where a failable init would need `!`.
    public init(clampingYear year: Int, month: Int, day: Int) {
        let month = min(max(month, 1), 12)
        self.year = year
        self.month = month
        self.day = min(max(day, 1), CivilCalendar.days(inMonth: month, of: year))
    }

    /// The day `instant` falls on in `timeZone`, on the zone's wall clock at that instant.
    public init(_ instant: Date, in timeZone: TimeZone) {
        self.init(ordinal: CivilCalendar.day(ofSeconds: CivilCalendar.wallClockSeconds(instant, in: timeZone)).ordinal)
    }

    /// Parses `YYYY-MM-DD`.
    public init?(iso text: some StringProtocol) {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            let year = CivilCalendar.read(digits: 4, of: bytes, at: 0),
            let month = CivilCalendar.read(digits: 2, of: bytes, at: 5),
            let day = CivilCalendar.read(digits: 2, of: bytes, at: 8)
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    public var iso: String {
        guard (0...9999).contains(self.year) else {
            return String(format: "%04d-%02d-%02d", self.year, self.month, self.day)
        }
        var text = Array("0000-00-00".utf8)
        CivilCalendar.write(self.year, digits: 4, into: &text, at: 0)
        CivilCalendar.write(self.month, digits: 2, into: &text, at: 5)
        CivilCalendar.write(self.day, digits: 2, into: &text, at: 8)
        return String(decoding: text, as: UTF8.self)
    }

    public var description: String { self.iso }

    /// Days since 1970-01-01; differences of ordinals count calendar days whatever the zone did.
    public var ordinal: Int {
        CivilCalendar.ordinal(year: self.year, month: self.month, day: self.day)
    }

    public init(ordinal: Int) {
        (self.year, self.month, self.day) = CivilCalendar.date(ordinal: ordinal)
    }

    public func adding(days: Int) -> LocalDate { LocalDate(ordinal: self.ordinal + days) }

    public func days(since other: LocalDate) -> Int { self.ordinal - other.ordinal }

    /// The instant this day starts in `timeZone` (not always 00:00: some zones skip midnight at DST).
    public func start(in timeZone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let noon = calendar.date(from: DateComponents(year: self.year, month: self.month, day: self.day, hour: 12))
        // Noon exists on every day in every zone; were it missing, the day's UTC start is the closest answer.
        return calendar.startOfDay(for: noon ?? Date(timeIntervalSince1970: Double(self.ordinal) * 86_400))
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let date = LocalDate(iso: text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "expected YYYY-MM-DD, found \(text)")
            )
        }
        self = date
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(self.iso)
    }
}

extension LocalDate {
    /// The day of the week (1970-01-01 was a Thursday).
    public var weekday: Weekday {
        let days: [Weekday] = [.thursday, .friday, .saturday, .sunday, .monday, .tuesday, .wednesday]
        return days[((self.ordinal % 7) + 7) % 7]
    }

    /// The first day of the week holding this date, for weeks that start on `first`.
    public func startOfWeek(startingOn first: Weekday) -> LocalDate {
        let offset = (self.weekday.index - first.index + 7) % 7
        return self.adding(days: -offset)
    }

    /// The first day of this date's month.
    public var startOfMonth: LocalDate { LocalDate(clampingYear: self.year, month: self.month, day: 1) }
}

extension LocalDate {
    /// The dates a `from`/`to` query asks for: by default the `defaultDays` ending `today`; at most
    /// `maximumDays` in all.
    public static func queried(
        from: LocalDate?,
        to: LocalDate?,
        today: LocalDate,
        defaultDays: Int = 7,
        maximumDays: Int = 366
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
