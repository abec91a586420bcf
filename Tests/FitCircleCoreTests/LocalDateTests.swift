import FitCircleCore
import FitCircleTesting
import Foundation
import Testing

struct LocalDateTests {
    /// An instant given as a wall-clock time in a zone, e.g. "2026-03-08 01:59:59" in New York.
    static func instant(_ text: String, in zone: String) -> Date {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: zone)!
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return formatter.date(from: text)!
    }

    static func date(_ iso: String) -> LocalDate { LocalDate(iso: iso)! }

    @Test(arguments: [
        // The last and first second of a day land on their own dates, in zones far apart.
        ("2026-06-15 23:59:59", "Pacific/Kiritimati", "2026-06-15"),
        ("2026-06-16 00:00:00", "Pacific/Kiritimati", "2026-06-16"),
        ("2026-06-15 23:59:59", "Pacific/Pago_Pago", "2026-06-15"),
        ("2026-06-16 00:00:00", "Pacific/Pago_Pago", "2026-06-16"),
        ("2026-06-15 23:59:59", "Asia/Kathmandu", "2026-06-15"),
        ("2026-06-16 00:00:00", "Asia/Kathmandu", "2026-06-16"),
        // New York's spring-forward day (02:00 → 03:00) and fall-back day (02:00 → 01:00 again).
        ("2026-03-08 00:00:00", "America/New_York", "2026-03-08"),
        ("2026-03-08 03:30:00", "America/New_York", "2026-03-08"),
        ("2026-03-08 23:59:59", "America/New_York", "2026-03-08"),
        ("2026-11-01 01:30:00", "America/New_York", "2026-11-01"),
        ("2026-11-01 23:59:59", "America/New_York", "2026-11-01"),
        ("2026-11-02 00:00:00", "America/New_York", "2026-11-02"),
        // Lord Howe Island moves its clocks by 30 minutes (first Sunday of April and of October).
        ("2026-04-05 01:45:00", "Australia/Lord_Howe", "2026-04-05"),
        ("2026-10-04 23:59:59", "Australia/Lord_Howe", "2026-10-04"),
        ("2026-10-05 00:00:00", "Australia/Lord_Howe", "2026-10-05"),
    ])
    func anInstantLandsOnItsLocalDate(wallClock: String, zone: String, expected: String) {
        let instant = Self.instant(wallClock, in: zone)
        #expect(LocalDate(instant, in: TimeZone(identifier: zone)!) == Self.date(expected))
    }

    @Test func oneInstantIsTwoDifferentDatesInKiritimatiAndPagoPago() {
        // 10:30 UTC: 00:30 on the 16th at +14, 23:30 on the 14th at −11.
        let instant = Date(timeIntervalSince1970: 1_781_519_400)  // 2026-06-15 10:30:00 UTC
        #expect(LocalDate(instant, in: TimeZone(identifier: "Pacific/Kiritimati")!) == Self.date("2026-06-16"))
        #expect(LocalDate(instant, in: TimeZone(identifier: "Pacific/Pago_Pago")!) == Self.date("2026-06-14"))
    }

    @Test func daysAreCountedAcrossDSTChangesAsCalendarDays() {
        #expect(Self.date("2026-03-09").days(since: Self.date("2026-03-07")) == 2)
        #expect(Self.date("2026-11-02").days(since: Self.date("2026-10-31")) == 2)
        #expect(Self.date("2026-03-01").adding(days: -1) == Self.date("2026-02-28"))
        #expect(Self.date("2028-03-01").adding(days: -1) == Self.date("2028-02-29"))
    }

    @Test func aDayStartsAtLocalMidnightEvenOnADSTDay() {
        let newYork = TimeZone(identifier: "America/New_York")!
        let start = Self.date("2026-03-08").start(in: newYork)
        #expect(start == Self.instant("2026-03-08 00:00:00", in: "America/New_York"))
        #expect(Self.date("2026-03-09").start(in: newYork).timeIntervalSince(start) == 23 * 3600)
    }

    @Test func isoTextRoundTripsAndNonsenseIsRefused() {
        #expect(LocalDate(iso: "2026-11-22")?.iso == "2026-11-22")
        for bad in ["2026-02-30", "2026-13-01", "26-11-22", "2026-11-22T00:00", "", "2026-1-2"] {
            #expect(LocalDate(iso: bad) == nil, "\(bad)")
        }
    }

    @Test func theLocalTimeOfAnInstantFollowsTheZonesOffsetThatDay() {
        let midnightUTC = Date(timeIntervalSince1970: 1_772_409_600)  // 2026-03-02 00:00 UTC
        #expect(LocalTime(midnightUTC, in: TimeZone(identifier: "Asia/Kathmandu")!) == LocalTime("05:45"))
        #expect(LocalTime(midnightUTC, in: TimeZone(identifier: "Pacific/Pago_Pago")!) == LocalTime("13:00"))
        #expect(LocalTime(midnightUTC, in: TimeZone(identifier: "Pacific/Kiritimati")!) == LocalTime("14:00"))
        let newYork = TimeZone(identifier: "America/New_York")!
        // 8 March, 06:59 UTC, EST
        #expect(LocalTime(Date(timeIntervalSince1970: 1_772_953_140), in: newYork) == LocalTime("01:59"))
        // 07:00 UTC, EDT
        #expect(LocalTime(Date(timeIntervalSince1970: 1_772_953_200), in: newYork) == LocalTime("03:00"))
        #expect(LocalTime(Date(timeIntervalSince1970: -1), in: .gmt) == LocalTime("23:59"))
    }

    /// The integer calendar agrees with Foundation's Gregorian calendar (where that one is Gregorian, from
    /// 1583), and an instant's local date with Foundation's in every zone, over random dates and instants.
    @Test func theIntegerCalendarAgreesWithFoundations() {
        var random = SeededRandom(seed: 20_261_123)
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = .gmt
        for _ in 0..<3_000 {
            let (year, month, day) = (
                Int.random(in: 1583...9999, using: &random), Int.random(in: 0...13, using: &random),
                Int.random(in: 0...32, using: &random)
            )
            var components = DateComponents(year: year, month: month, day: day)
            components.calendar = utc
            #expect(
                (LocalDate(year: year, month: month, day: day) != nil) == components.isValidDate,
                "\(year)-\(month)-\(day)"
            )
            guard let date = LocalDate(year: year, month: month, day: day) else { continue }
            let midnight = utc.date(from: components)!
            #expect(date.ordinal == Int((midnight.timeIntervalSince1970 / 86_400).rounded()), "\(date)")
            #expect(LocalDate(ordinal: date.ordinal) == date)
            #expect(LocalDate(iso: date.iso) == date)
            #expect(date.iso == String(format: "%04d-%02d-%02d", year, month, day))
        }
        let zones = TimeZone.knownTimeZoneIdentifiers
        for index in 0..<6_000 {
            let zone = TimeZone(identifier: zones[index % zones.count])!
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            // 1900 to 2100, a fifth of them a second either side of a local midnight.
            var instant = Date(
                timeIntervalSince1970: Double.random(in: -2_208_988_800...4_102_444_800, using: &random).rounded(.down)
            )
            if index % 5 == 0 {
                instant = calendar.startOfDay(for: instant).addingTimeInterval(index % 2 == 0 ? 0 : -1)
            }
            let parts = calendar.dateComponents([.year, .month, .day], from: instant)
            #expect(
                LocalDate(instant, in: zone) == LocalDate(year: parts.year!, month: parts.month!, day: parts.day!),
                "\(instant) in \(zone.identifier)"
            )
        }
    }
}
