/// Storage failures a use case may handle; driver errors never cross the store boundary unwrapped.
public enum StoreError: Error, Equatable, Sendable {
    /// A unique constraint refused the write (a second row for the same key).
    case duplicate
    /// The database gave up on this transaction because of a concurrent one; retrying may succeed.
    case conflict
    /// The database was migrated by a newer FitCircle than this one.
    case databaseNewer(found: Int, supported: Int)
    /// The database cannot be reached (or refuses connections) right now; retrying later may succeed.
    case unavailable
}

extension StoreError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .duplicate: "a row with the same key already exists"
        case .conflict: "the transaction conflicted with a concurrent one"
        case .databaseNewer(let found, let supported):
            "the database is at schema version \(found) but this FitCircle supports up to \(supported); upgrade FitCircle"
        case .unavailable: "the database does not answer"
        }
    }
}
