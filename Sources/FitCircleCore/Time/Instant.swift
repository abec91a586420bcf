public import Foundation

/// The instants FitCircle stores and computes with: 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z, the
/// years RFC 3339 can write. An instant that comes from outside (a cursor, a date in a body) beyond them is
/// refused before it reaches a query: PostgreSQL's driver traps converting a non-finite or far-off `Date`
/// to microseconds, which would take the whole process down for one request.
public enum Instant {
    public static let earliest = Date(timeIntervalSince1970: -62_135_596_800)
    public static let latest = Date(timeIntervalSince1970: 253_402_300_799)

    /// The instant `seconds` after 1970 when it is finite and in range, else `nil`.
    public static func supported(secondsSince1970 seconds: Double) -> Date? {
        guard seconds.isFinite, (earliest.timeIntervalSince1970...latest.timeIntervalSince1970).contains(seconds) else {
            return nil
        }
        return Date(timeIntervalSince1970: seconds)
    }

    public static func isSupported(_ date: Date) -> Bool {
        supported(secondsSince1970: date.timeIntervalSince1970) != nil
    }
}
