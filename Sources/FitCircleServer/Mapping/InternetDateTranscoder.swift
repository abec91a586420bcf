import FitCircleCore
import Foundation
import OpenAPIRuntime

/// The API's dates as OpenAPIRuntime's ISO 8601 transcoder reads and writes them — RFC 3339, written in UTC
/// to the second (`2026-03-02T09:00:00Z`), and read with a fraction of a second too (dropped) — but by hand for
/// the usual forms: its formatter (ICU, behind one
/// lock for every thread) took a sixth of the time of a board read, whose rows each carry a date, and more
/// than any other step of recording an activity, whose `occurredAt` it read. Anything else (a year before
/// 1583, where the formatter counts in the Julian calendar; a leap second; another layout) is left to it.
struct InternetDateTranscoder: DateTranscoder {
    private let standard = ISO8601DateTranscoder()

    func encode(_ date: Date) throws -> String {
        try Self.written(date) ?? self.standard.encode(date)
    }

    /// The text of a date as `encode` writes it, for the answers written by hand (`JSONWriter`).
    static func text(_ date: Date) -> String {
        Self.written(date) ?? ISO8601DateFormatter().string(from: date)
    }

    /// The usual dates, written by hand; nil for a year before 1583 or after 9999.
    private static func written(_ date: Date) -> String? {
        let (days, second) = CivilCalendar.day(ofSeconds: Int(date.timeIntervalSince1970.rounded(.down)))
        let (year, month, day) = CivilCalendar.date(ordinal: days)
        guard (1583...9999).contains(year) else { return nil }
        var text = Array("0000-00-00T00:00:00Z".utf8)
        CivilCalendar.write(year, digits: 4, into: &text, at: 0)
        CivilCalendar.write(month, digits: 2, into: &text, at: 5)
        CivilCalendar.write(day, digits: 2, into: &text, at: 8)
        CivilCalendar.write(second / 3600, digits: 2, into: &text, at: 11)
        CivilCalendar.write(second / 60 % 60, digits: 2, into: &text, at: 14)
        CivilCalendar.write(second % 60, digits: 2, into: &text, at: 17)
        return String(decoding: text, as: UTF8.self)
    }

    func decode(_ dateString: String) throws -> Date {
        try Self.instant(dateString) ?? self.standard.decode(dateString)
    }

    /// `YYYY-MM-DDTHH:MM:SS[.fraction]Z` or `…±HH:MM`, valid and from 1583 on; nil for anything else. The
    /// fraction of a second (1–9 digits) is RFC 3339's too: OpenAPIRuntime's transcoder refuses it, and
    /// clients that write it (Python's `isoformat`, JavaScript's `toISOString`) would be refused. It is read
    /// and dropped: the API counts in whole seconds, as it writes, so that an input sent again with its
    /// fraction is the same input as the one stored (a replay, not a conflict), on either database.
    static func instant(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        func number(_ digits: Int, at offset: Int, in range: ClosedRange<Int>) -> Int? {
            CivilCalendar.read(digits: digits, of: bytes, at: offset).flatMap { range.contains($0) ? $0 : nil }
        }
        func has(_ character: Unicode.Scalar, at offset: Int) -> Bool {
            offset < bytes.count && bytes[offset] == UInt8(ascii: character)
        }
        guard bytes.count >= 20,
            has("-", at: 4), has("-", at: 7), has("T", at: 10), has(":", at: 13), has(":", at: 16),
            let year = number(4, at: 0, in: 1583...9999), let month = number(2, at: 5, in: 1...12),
            let day = number(2, at: 8, in: 1...CivilCalendar.days(inMonth: month, of: year)),
            let hour = number(2, at: 11, in: 0...23), let minute = number(2, at: 14, in: 0...59),
            let second = number(2, at: 17, in: 0...59)
        else { return nil }
        var zone = 19
        if has(".", at: 19) {
            var digits = 0
            while 20 + digits < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[20 + digits]) {
                digits += 1
            }
            guard (1...9).contains(digits) else { return nil }
            zone = 20 + digits
        }
        var offset = 0
        if bytes.count == zone + 1 {
            guard has("Z", at: zone) else { return nil }
        } else {
            guard bytes.count == zone + 6, has("+", at: zone) || has("-", at: zone), has(":", at: zone + 3),
                let hours = number(2, at: zone + 1, in: 0...23), let minutes = number(2, at: zone + 4, in: 0...59)
            else { return nil }
            offset = (has("-", at: zone) ? -1 : 1) * (hours * 3600 + minutes * 60)
        }
        let days = CivilCalendar.ordinal(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3600 + minute * 60 + second - offset))
    }
}
