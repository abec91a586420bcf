public import FitCircleCore
public import Foundation
import SQLKit

extension Transaction {
    /// The rows past `key` in a list ordered by the instant `column`, then by `idColumn`: after it in
    /// descending order (newest first), or in ascending order. Instants are compared as the database holds
    /// them, to the microsecond a read gives:
    /// - PostgreSQL keeps microseconds, but a `Date` bound there is truncated to one, and after a cursor's
    ///   round trip (a row's instant read, written out as seconds, read back) a quarter of instants land
    ///   1 µs short, which would skip the rows of the same instant or, ascending, give the page's last row
    ///   again. The microsecond is rounded instead (the round trip is well within half of one) and built in
    ///   SQL.
    /// - SQLite keeps the seconds as a double, and a read rounds them to the microsecond (SQLiteNIO, counting
    ///   from 2001): the same rounding is done in SQL, within a range of the column an index can serve.
    func keyset(_ column: String, _ idColumn: String, after key: InstantKey, descending: Bool) -> SQLQueryString {
        let id = key.id
        switch self.dialect {
        case .postgres:
            let microseconds = Int64((key.at.timeIntervalSince1970 * 1_000_000).rounded())
            let instant: SQLQueryString = "(TIMESTAMPTZ 'epoch' + \(bind: microseconds) * INTERVAL '1 microsecond')"
            return descending
                ? "(\(unsafeRaw: column), \(unsafeRaw: idColumn)) < (\(instant), \(bind: id))"
                : "(\(unsafeRaw: column), \(unsafeRaw: idColumn)) > (\(instant), \(bind: id))"
        case .sqlite:
            let reference = Date.timeIntervalBetween1970AndReferenceDate
            let microsecond: SQLQueryString = "ROUND((\(unsafeRaw: column) - \(literal: reference)) * 1000000.0)"
            let rounded = (key.at.timeIntervalSinceReferenceDate * 1_000_000).rounded()
            let seconds = key.at.timeIntervalSince1970
            return descending
                ? """
                (\(unsafeRaw: column) < \(bind: seconds + 0.000_001) AND (\(microsecond) < \(bind: rounded)
                    OR (\(microsecond) = \(bind: rounded) AND \(unsafeRaw: idColumn) < \(bind: id))))
                """
                : """
                (\(unsafeRaw: column) > \(bind: seconds - 0.000_001) AND (\(microsecond) > \(bind: rounded)
                    OR (\(microsecond) = \(bind: rounded) AND \(unsafeRaw: idColumn) > \(bind: id))))
                """
        }
    }
}
