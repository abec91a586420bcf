/// A bounded memory of what was used lately, for a process's caches (decoded payloads, kept answers): two
/// generations of at most `capacity / 2` entries each. When the newer fills it becomes the older and the
/// older is let go, so an entry found again lately survives (it moves back to the newer) and no more than
/// `capacity` entries are ever held. A value: its owner keeps it behind a lock.
public struct RecentlyUsed<Key: Hashable, Value> {
    private var newer: [Key: Value] = [:]
    private var older: [Key: Value] = [:]
    public let capacity: Int

    public init(capacity: Int) {
        self.capacity = max(2, capacity)
    }

    public var count: Int { self.newer.count + self.older.count }

    public func contains(_ key: Key) -> Bool {
        self.newer[key] != nil || self.older[key] != nil
    }

    /// The value kept for `key`, moved to the newer generation when it was in the older.
    public mutating func value(for key: Key) -> Value? {
        if let value = self.newer[key] { return value }
        guard let value = self.older.removeValue(forKey: key) else { return nil }
        self.insert(value, for: key)
        return value
    }

    public mutating func insert(_ value: Value, for key: Key) {
        self.older[key] = nil
        if self.newer.count >= self.capacity / 2, self.newer[key] == nil {
            self.older = self.newer
            self.newer = [:]
        }
        self.newer[key] = value
    }
}

extension RecentlyUsed: Sendable where Key: Sendable, Value: Sendable {}
