public import Foundation

/// A time of day on the user's own clock, written "HH:MM".
public struct LocalTime: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public var hour: Int
    public var minute: Int

    public init?(hour: Int, minute: Int) {
        guard (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        self.hour = hour
        self.minute = minute
    }

    /// A time that always exists: `minutes` since midnight, wrapped into the day (1,440 is 00:00). For times
    /// made from parts known to be valid, where the failable init would need `!`.
    public init(minutesSinceMidnight minutes: Int) {
        let wrapped = ((minutes % 1_440) + 1_440) % 1_440
        self.hour = wrapped / 60
        self.minute = wrapped % 60
    }

    /// `hour:minute`, wrapped into the day like `init(minutesSinceMidnight:)`.
    public static func at(_ hour: Int, _ minute: Int = 0) -> LocalTime {
        LocalTime(minutesSinceMidnight: hour * 60 + minute)
    }

    @inlinable
    public init?(_ text: some StringProtocol) {
        self.init(utf8: text.utf8)
    }

    /// `HH:MM` from its UTF-8 bytes, read as they are: planning reads four times per user of a zone, and
    /// the generic split-and-parse took an eighth of its time (issue 44). Inlinable, so a caller's module
    /// runs it specialised.
    @inlinable
    public init?(utf8 bytes: some Collection<UInt8>) {
        guard bytes.count == 5 else { return nil }
        var digits = bytes.makeIterator()
        func digit() -> Int? {
            guard let byte = digits.next(), byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            return Int(byte - UInt8(ascii: "0"))
        }
        guard let h1 = digit(), let h2 = digit(), digits.next() == UInt8(ascii: ":"), let m1 = digit(),
            let m2 = digit()
        else { return nil }
        self.init(hour: h1 * 10 + h2, minute: m1 * 10 + m2)
    }

    /// Minutes since midnight.
    public var minutes: Int { self.hour * 60 + self.minute }

    public var description: String {
        (self.hour < 10 ? "0" : "") + "\(self.hour):" + (self.minute < 10 ? "0" : "") + "\(self.minute)"
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.minutes < rhs.minutes }

    /// The time the clock in `zone` shows at `instant` (from the zone's offset then: no calendar to build,
    /// which the planner's thousands of instants a page would feel).
    public init(_ instant: Date, in zone: TimeZone) {
        let minutes = CivilCalendar.day(ofSeconds: CivilCalendar.wallClockSeconds(instant, in: zone)).second / 60
        self.init(minutesSinceMidnight: minutes)
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let time = LocalTime(text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "expected HH:MM, found \(text)")
            )
        }
        self = time
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(self.description)
    }
}

extension LocalDate {
    /// The first instant of this date when the clock in `zone` shows `time`; a time a DST change skips
    /// resolves to the end of the gap.
    public func instant(at time: LocalTime, in zone: TimeZone) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        guard
            let instant = calendar.nextDate(
                after: self.start(in: zone).addingTimeInterval(-1),
                matching: DateComponents(hour: time.hour, minute: time.minute, second: 0),
                matchingPolicy: .nextTime
            ), LocalDate(instant, in: zone) == self
        else { return nil }
        return instant
    }
}
