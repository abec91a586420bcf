import Foundation
import OpenAPIRuntime

/// The API's dates as OpenAPIRuntime's ISO 8601 transcoder writes them — RFC 3339 in UTC to the second,
/// `2026-03-02T09:00:00Z` — but written by hand: its formatter (ICU, behind one lock for every thread) took a
/// sixth of the time of a board read, whose rows each carry a date. Reading is left to that transcoder.
struct InternetDateTranscoder: DateTranscoder {
    private let standard = ISO8601DateTranscoder()

    func encode(_ date: Date) throws -> String {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let (days, second) = (seconds.quotientRoundedDown(by: 86_400), seconds.moduloRoundedDown(by: 86_400))
        let (year, month, day) = Self.civil(fromDaysSinceEpoch: days)
        // Before 1583 the standard formatter counts in the Julian calendar; such dates are left to it.
        guard (1583...9999).contains(year) else { return try self.standard.encode(date) }
        var text = [UInt8](repeating: 0, count: 20)
        func put(_ value: Int64, digits: Int, at offset: Int) {
            var value = value
            for index in stride(from: offset + digits - 1, through: offset, by: -1) {
                text[index] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
            }
        }
        put(year, digits: 4, at: 0)
        put(month, digits: 2, at: 5)
        put(day, digits: 2, at: 8)
        put(second / 3600, digits: 2, at: 11)
        put(second / 60 % 60, digits: 2, at: 14)
        put(second % 60, digits: 2, at: 17)
        for (offset, character) in [(4, "-"), (7, "-"), (10, "T"), (13, ":"), (16, ":"), (19, "Z")] as [(Int, Unicode.Scalar)] {
            text[offset] = UInt8(ascii: character)
        }
        return String(decoding: text, as: UTF8.self)
    }

    func decode(_ dateString: String) throws -> Date {
        try self.standard.decode(dateString)
    }

    /// The proleptic Gregorian date of a day counted from 1970-01-01 (Howard Hinnant's `civil_from_days`).
    static func civil(fromDaysSinceEpoch days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = shifted.quotientRoundedDown(by: 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

extension Int64 {
    fileprivate func quotientRoundedDown(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }

    fileprivate func moduloRoundedDown(by divisor: Int64) -> Int64 {
        self - self.quotientRoundedDown(by: divisor) * divisor
    }
}
