import FitCircleCore
import Testing

/// ISO 8601 weeks: Monday to Sunday, numbered in the year of their Thursday.
struct IsoWeekTests {
    static func week(_ iso: String) -> String { IsoWeek(containing: LocalDate(iso: iso)!).description }

    @Test func weeksBelongToTheYearOfTheirThursday() {
        #expect(Self.week("2025-12-29") == "2026-W01")  // a Monday whose Thursday is 1 January 2026
        #expect(Self.week("2021-01-03") == "2020-W53")  // a Sunday of 2020's last week
        #expect(Self.week("2026-03-08") == "2026-W10" && Self.week("2026-03-09") == "2026-W11")
        #expect(Self.week("2026-12-31") == "2026-W53")
        #expect(IsoWeek.weeks(in: 2026) == 53 && IsoWeek.weeks(in: 2025) == 52)
        #expect(IsoWeek("2026-W11")?.monday == LocalDate(iso: "2026-03-09"))
        #expect(IsoWeek("2026-W01")?.monday == LocalDate(iso: "2025-12-29"))
    }

    @Test(arguments: [
        "2025-W53", "2026-W00", "2026-W54", "2026-W1", "26-W10", "2026W10", "2026-w10", "", "2026-W1O", "٢٠٢٦-W10",
    ])
    func malformedWeeksAreRefused(_ text: String) {
        #expect(IsoWeek(text) == nil)
        #expect(throws: ValidationError.self) { try WeeklyContent.validatedWeek(text) }
    }

    @Test(arguments: [
        "", "Horoscope", "horoscope leo", "-leading", String(repeating: "a", count: 101), "horoscope:é", "a\u{0}",
    ])
    func keysOutsideTheAlphabetAreRefused(_ key: String) {
        #expect(throws: ValidationError.self) { try WeeklyContent.validatedKey(key) }
    }

    @Test func keysInTheAlphabetPass() throws {
        #expect(try WeeklyContent.validatedKey("compatibility:aries-leo") == "compatibility:aries-leo")
        #expect(try WeeklyContent.validatedKey(String(repeating: "a", count: 100)).count == 100)
    }
}
