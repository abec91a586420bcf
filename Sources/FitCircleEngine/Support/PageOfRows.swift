public import FitCircleCore

/// A page of a list that the store read one row longer than asked, to tell whether another page follows.
struct PageOfRows<Row> {
    let rows: [Row]
    let limit: Int

    /// The page's rows, at most `limit`.
    var items: ArraySlice<Row> { self.rows.prefix(self.limit) }

    /// The key of the page's last row when another page follows.
    func next<Key>(_ key: (Row) -> Key) -> Key? {
        self.rows.count > self.limit ? self.items.last.map(key) : nil
    }
}

/// The size a page is asked for: within its list's bounds, or a 422 naming `limit`.
enum PageLimit {
    static func check(_ limit: Int, within bounds: ClosedRange<Int>) throws {
        guard bounds.contains(limit) else {
            throw ValidationError(
                field: "limit",
                reason: "must be between \(bounds.lowerBound) and \(bounds.upperBound)"
            )
        }
    }
}
