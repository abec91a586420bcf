public import Foundation

/// Day arithmetic of the proleptic Gregorian calendar (ISO 8601's), on plain integers: days counted from
/// 1970-01-01 and back (Howard Hinnant's `days_from_civil` and `civil_from_days`). Foundation's `Calendar`
/// answers the same through ICU, which stood out in profiles of every event the ledger placed.
public enum CivilCalendar {
    /// Days from 1970-01-01 to a date (negative before it); `month` in 1...12, `day` in 1...31.
    public static func ordinal(year: Int, month: Int, day: Int) -> Int {
        let year = month <= 2 ? year - 1 : year
        let era = year.floorDivided(by: 400)
        let yearOfEra = year - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `ordinal` days from 1970-01-01.
    public static func date(ordinal: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = ordinal + 719_468
        let era = shifted.floorDivided(by: 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The wall-clock seconds of `instant` in `zone`: seconds from 1970-01-01 00:00 on that zone's clock,
    /// by the zone's UTC offset at that instant (DST and odd offsets included, as the zone database says).
    public static func wallClockSeconds(_ instant: Date, in zone: TimeZone) -> Int {
        Int(instant.timeIntervalSince1970.rounded(.down)) + zone.secondsFromGMT(for: instant)
    }

    /// The day (counted from 1970-01-01) and the second within it of a count of seconds from 1970-01-01 00:00.
    public static func day(ofSeconds seconds: Int) -> (ordinal: Int, second: Int) {
        let ordinal = seconds.floorDivided(by: 86_400)
        return (ordinal, seconds - ordinal * 86_400)
    }

    /// 28 to 31.
    public static func days(inMonth month: Int, of year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Writes the last `digits` decimal digits of a non-negative `value` at `offset`, zero-padded: the
    /// numbers of dates and times in text written by hand, as `String(format:)` costs a formatter each time.
    public static func write(_ value: Int, digits: Int, into text: inout [UInt8], at offset: Int) {
        var value = value
        for index in stride(from: offset + digits - 1, through: offset, by: -1) {
            text[index] = UInt8(ascii: "0") + UInt8(value % 10)
            value /= 10
        }
    }

    /// The number written in `digits` decimal digits of `text` from `offset`, or nil if one is not a digit.
    public static func read(digits: Int, of text: [UInt8], at offset: Int) -> Int? {
        guard offset >= 0, offset + digits <= text.count else { return nil }
        var value = 0
        for byte in text[offset..<offset + digits] {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}

extension Int {
    /// Division rounded towards minus infinity: second `-1` is on the day before 1970-01-01, not the same day.
    public func floorDivided(by divisor: Int) -> Int {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
