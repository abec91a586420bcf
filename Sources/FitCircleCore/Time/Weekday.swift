/// A day of the week, as profiles name it (`monday` … `sunday`).
public enum Weekday: String, CaseIterable, Equatable, Sendable, Codable {
    case monday, tuesday, wednesday, thursday, friday, saturday, sunday

    /// Its place in a Monday-first week: Monday is 0, Sunday is 6.
    public var index: Int {
        switch self {
        case .monday: 0
        case .tuesday: 1
        case .wednesday: 2
        case .thursday: 3
        case .friday: 4
        case .saturday: 5
        case .sunday: 6
        }
    }

    /// Foundation's `Calendar` weekday number: Sunday is 1, Saturday is 7.
    public var calendarWeekday: Int {
        switch self {
        case .sunday: 1
        case .monday: 2
        case .tuesday: 3
        case .wednesday: 4
        case .thursday: 5
        case .friday: 6
        case .saturday: 7
        }
    }
}
