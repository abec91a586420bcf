/// An ISO 8601 week ("2026-W10"): Monday to Sunday, numbered within the year that holds its Thursday, so
/// 29 December 2025 is in 2026-W01. Spec 003's "new this week" is decided by it, in the user's own zone.
public struct IsoWeek: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let year: Int
    public let week: Int

    /// The week holding `date`.
    public init(containing date: LocalDate) {
        let thursday = date.startOfWeek(startingOn: .monday).adding(days: 3)
        self.year = thursday.year
        self.week = thursday.days(since: LocalDate(clampingYear: thursday.year, month: 1, day: 1)) / 7 + 1
    }

    /// A week as written, "2026-W10"; nil when malformed or when the year has no such week.
    public init?(_ text: String) {
        let parts = text.split(separator: "-W", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 4, parts[1].count == 2, let year = Int(parts[0]),
            let week = Int(parts[1]),
            (1...9999).contains(year), week >= 1, week <= Self.weeks(in: year)
        else { return nil }
        (self.year, self.week) = (year, week)
    }

    /// 52 or 53: a year has 53 weeks when its 28 December falls in week 53.
    public static func weeks(in year: Int) -> Int {
        IsoWeek(containing: LocalDate(clampingYear: year, month: 12, day: 28)).week
    }

    /// Its Monday.
    public var monday: LocalDate {
        let january4 = LocalDate(clampingYear: self.year, month: 1, day: 4)
        return january4.startOfWeek(startingOn: .monday).adding(days: (self.week - 1) * 7)
    }

    public var description: String { "\(self.year)-W\(self.week < 10 ? "0" : "")\(self.week)" }

    public static func < (lhs: IsoWeek, rhs: IsoWeek) -> Bool { (lhs.year, lhs.week) < (rhs.year, rhs.week) }
}
