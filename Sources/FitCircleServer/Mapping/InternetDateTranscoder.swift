import FitCircleCore
import Foundation
import OpenAPIRuntime

/// The API's dates as OpenAPIRuntime's ISO 8601 transcoder reads and writes them — RFC 3339, written in UTC
/// to the second (`2026-03-02T09:00:00Z`) — but by hand for the usual forms: its formatter (ICU, behind one
/// lock for every thread) took a sixth of the time of a board read, whose rows each carry a date, and more
/// than any other step of recording an activity, whose `occurredAt` it read. Anything else (a year before
/// 1583, where the formatter counts in the Julian calendar; a leap second; another layout) is left to it.
struct InternetDateTranscoder: DateTranscoder {
    private let standard = ISO8601DateTranscoder()

    func encode(_ date: Date) throws -> String {
        let (days, second) = CivilCalendar.day(ofSeconds: Int(date.timeIntervalSince1970.rounded(.down)))
        let (year, month, day) = CivilCalendar.date(ordinal: days)
        guard (1583...9999).contains(year) else { return try self.standard.encode(date) }
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

    /// `YYYY-MM-DDTHH:MM:SSZ` or `YYYY-MM-DDTHH:MM:SS±HH:MM`, valid and from 1583 on; nil for anything else.
    static func instant(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        func number(_ digits: Int, at offset: Int, in range: ClosedRange<Int>) -> Int? {
            CivilCalendar.read(digits: digits, of: bytes, at: offset).flatMap { range.contains($0) ? $0 : nil }
        }
        func has(_ character: Unicode.Scalar, at offset: Int) -> Bool { bytes[offset] == UInt8(ascii: character) }
        guard bytes.count == 20 || bytes.count == 25,
            has("-", at: 4), has("-", at: 7), has("T", at: 10), has(":", at: 13), has(":", at: 16),
            let year = number(4, at: 0, in: 1583...9999), let month = number(2, at: 5, in: 1...12),
            let day = number(2, at: 8, in: 1...CivilCalendar.days(inMonth: month, of: year)),
            let hour = number(2, at: 11, in: 0...23), let minute = number(2, at: 14, in: 0...59),
            let second = number(2, at: 17, in: 0...59)
        else { return nil }
        var offset = 0
        if bytes.count == 20 {
            guard has("Z", at: 19) else { return nil }
        } else {
            guard has("+", at: 19) || has("-", at: 19), has(":", at: 22),
                let hours = number(2, at: 20, in: 0...23), let minutes = number(2, at: 23, in: 0...59)
            else { return nil }
            offset = (has("-", at: 19) ? -1 : 1) * (hours * 3600 + minutes * 60)
        }
        let days = CivilCalendar.ordinal(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3600 + minute * 60 + second - offset))
    }
}
