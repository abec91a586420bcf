public import Foundation

/// Where a member stands on a board, and the board's order: the higher value first; on equal values, who
/// reached the value first; then the user id, so two entries never tie.
public struct BoardKey: Comparable, Hashable, Sendable, Codable {
    public var value: Double
    public var reachedAt: Date
    public var user: User.ID

    public init(value: Double, reachedAt: Date, user: User.ID) {
        self.value = value
        self.reachedAt = reachedAt
        self.user = user
    }

    /// The instant kept to the millisecond, as the database stores it: a key made here and the same key
    /// read back compare equal.
    public init(value: Double, reachedMilliseconds: Int64, user: User.ID) {
        self.init(value: value, reachedAt: Date(timeIntervalSince1970: Double(reachedMilliseconds) / 1_000), user: user)
    }

    public static func truncated(value: Double, reachedAt: Date, user: User.ID) -> BoardKey {
        BoardKey(value: value, reachedMilliseconds: Self.milliseconds(reachedAt), user: user)
    }

    public var reachedMilliseconds: Int64 { Self.milliseconds(self.reachedAt) }

    private enum CodingKeys: String, CodingKey { case value, reachedMs, user }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            value: try container.decode(Double.self, forKey: .value),
            reachedMilliseconds: try container.decode(Int64.self, forKey: .reachedMs),
            user: try container.decode(User.ID.self, forKey: .user)
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(self.value, forKey: .value)
        try container.encode(self.reachedMilliseconds, forKey: .reachedMs)
        try container.encode(self.user, forKey: .user)
    }

    private static func milliseconds(_ instant: Date) -> Int64 {
        Int64((instant.timeIntervalSince1970 * 1_000).rounded(.down))
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        if lhs.value != rhs.value { return lhs.value > rhs.value }
        if lhs.reachedAt != rhs.reachedAt { return lhs.reachedAt < rhs.reachedAt }
        return lhs.user < rhs.user
    }
}

/// An order-statistic index of one board (a treap whose nodes know their subtree's size): a member's rank,
/// the member at a rank and updates in O(log n), a run of k ranks in O(log n + k). Nodes live in flat arrays
/// (indices, not references), and a member's node is found through a table of node numbers (open
/// addressing on the member's hash, at most half full), so an entry takes its key (32 bytes), two children
/// and a subtree size (12) and two to four table slots (8–16): 54 bytes measured at 1,000,000, where a
/// dictionary of ids and stored priorities took 101. A node's treap priority is a hash of its number, not
/// stored; numbers are handed out in the order entries arrive (or, built at once, in key order), and the
/// hash makes the priorities unrelated to the keys, as a treap needs.
public struct RankIndex: Sendable {
    private var keys: [BoardKey] = []
    private var left: [Int32] = []
    private var right: [Int32] = []
    private var size: [Int32] = []
    private var freed: [Int32] = []
    private var root: Int32 = -1
    /// Node numbers by member: linear probing over a power-of-two table at most half full, -1 for empty.
    private var table: [Int32] = []
    private var members = 0

    public init() {}

    /// An index of `keys` built at once, in O(n) when they come in order (as the database reads a board)
    /// and O(n log n) otherwise. A member given twice keeps their last key.
    public init(_ keys: [BoardKey]) {
        var sorted = keys
        if !sorted.indices.dropFirst().allSatisfy({ sorted[$0 - 1] < sorted[$0] }) { sorted.sort() }
        self.keys = sorted
        self.left = Array(repeating: -1, count: sorted.count)
        self.right = Array(repeating: -1, count: sorted.count)
        self.size = Array(repeating: 1, count: sorted.count)
        self.table = Array(repeating: -1, count: Self.tableCapacity(for: sorted.count))
        for node in sorted.indices {
            guard self.find(sorted[node].user).node == nil else {
                self = Self.inserted(keys)  // a member twice: the slow way, which keeps the last key
                return
            }
            self.place(Int32(node))
        }
        // The treap of keys in order: a Cartesian tree on the priorities, by the rightmost path on a stack.
        var path: [Int32] = []
        for node in Int32(0)..<Int32(sorted.count) {
            var last: Int32 = -1
            while let top = path.last, Self.priority(top) < Self.priority(node) { last = path.removeLast() }
            self.left[Int(node)] = last
            if let top = path.last { self.right[Int(top)] = node }
            path.append(node)
        }
        self.root = path.first ?? -1
        self.fillSizes(self.root)
    }

    private static func inserted(_ keys: [BoardKey]) -> RankIndex {
        var index = RankIndex()
        for key in keys { index.upsert(key) }
        return index
    }

    public var count: Int { self.members }

    public func key(of user: User.ID) -> BoardKey? { self.find(user).node.map { self.keys[Int($0)] } }

    /// Places the member at `key`, moving them if they were elsewhere.
    public mutating func upsert(_ key: BoardKey) {
        if let node = self.find(key.user).node {
            if self.keys[Int(node)] == key { return }
            self.root = self.erase(self.root, self.keys[Int(node)])
            self.unplace(node)
            self.freed.append(node)
        }
        let node = self.allocate(key)
        self.place(node)
        let (lower, upper) = self.split(self.root, key)
        self.root = self.merge(self.merge(lower, node), upper)
    }

    public mutating func remove(_ user: User.ID) {
        guard let node = self.find(user).node else { return }
        self.root = self.erase(self.root, self.keys[Int(node)])
        self.unplace(node)
        self.freed.append(node)
    }

    /// The member's rank, 1 for the first.
    public func rank(of user: User.ID) -> Int? {
        self.key(of: user).map { self.countBefore($0) + 1 }
    }

    /// How many entries come before `key`, the entry of `key.user` aside: the rank `key` would take, minus
    /// one, once its member moved there.
    public func countBefore(_ key: BoardKey) -> Int {
        let count = self.count(before: key)
        if let own = self.key(of: key.user), own < key { return count - 1 }
        return count
    }

    /// How many entries come before `key`, whoever they are.
    public func count(before key: BoardKey) -> Int {
        var count = 0
        var current = self.root
        while current >= 0 {
            let index = Int(current)
            if self.keys[index] < key {
                count += self.sizeOf(self.left[index]) + 1
                current = self.right[index]
            } else {
                current = self.left[index]
            }
        }
        return count
    }

    /// Up to `limit` entries after `key` in order, with the rank of the first.
    public func entries(after key: BoardKey, limit: Int) -> (firstRank: Int, keys: [BoardKey]) {
        let first = self.count(before: key) + (self.key(of: key.user) == key ? 1 : 0) + 1
        guard limit > 0 else { return (first, []) }
        return (first, self.entries(ranks: first...(first + limit - 1)))
    }

    /// The entry at `rank` (1 for the first).
    public func entry(atRank rank: Int) -> BoardKey? {
        guard rank >= 1 && rank <= self.count else { return nil }
        var remaining = rank - 1
        var current = self.root
        while current >= 0 {
            let index = Int(current)
            let before = self.sizeOf(self.left[index])
            if remaining < before {
                current = self.left[index]
            } else if remaining == before {
                return self.keys[index]
            } else {
                remaining -= before + 1
                current = self.right[index]
            }
        }
        return nil
    }

    /// The entries ranked within `ranks`, in order (clamped to the board): one descent and a walk of the
    /// run, O(log n + k).
    public func entries(ranks: ClosedRange<Int>) -> [BoardKey] {
        let lower = max(1, ranks.lowerBound)
        let upper = min(self.count, ranks.upperBound)
        guard lower <= upper else { return [] }
        var run: [BoardKey] = []
        run.reserveCapacity(upper - lower + 1)
        self.collect(self.root, before: 0, lower...upper, into: &run)
        return run
    }

    /// Appends the entries of the subtree at `node` ranked within `ranks`; `before` entries precede it.
    private func collect(_ node: Int32, before: Int, _ ranks: ClosedRange<Int>, into run: inout [BoardKey]) {
        guard node >= 0 else { return }
        let index = Int(node)
        let rank = before + self.sizeOf(self.left[index]) + 1
        if ranks.lowerBound < rank { self.collect(self.left[index], before: before, ranks, into: &run) }
        if ranks.contains(rank) { run.append(self.keys[index]) }
        if rank < ranks.upperBound { self.collect(self.right[index], before: rank, ranks, into: &run) }
    }

    // MARK: The treap

    private func sizeOf(_ node: Int32) -> Int { node < 0 ? 0 : Int(self.size[Int(node)]) }

    private mutating func allocate(_ key: BoardKey) -> Int32 {
        if let node = self.freed.popLast() {
            let index = Int(node)
            (self.keys[index], self.left[index], self.right[index], self.size[index]) = (key, -1, -1, 1)
            return node
        }
        self.keys.append(key)
        self.left.append(-1)
        self.right.append(-1)
        self.size.append(1)
        return Int32(self.keys.count - 1)
    }

    /// A node's priority: its number, mixed (MurmurHash3's finaliser).
    private static func priority(_ node: Int32) -> UInt32 {
        var hash = UInt32(bitPattern: node)
        hash ^= hash >> 16
        hash &*= 0x85EB_CA6B
        hash ^= hash >> 13
        hash &*= 0xC2B2_AE35
        hash ^= hash >> 16
        return hash
    }

    @discardableResult
    private mutating func fillSizes(_ node: Int32) -> Int32 {
        guard node >= 0 else { return 0 }
        let index = Int(node)
        self.size[index] = self.fillSizes(self.left[index]) + self.fillSizes(self.right[index]) + 1
        return self.size[index]
    }

    private mutating func update(_ node: Int32) {
        let index = Int(node)
        self.size[index] = Int32(self.sizeOf(self.left[index]) + self.sizeOf(self.right[index]) + 1)
    }

    /// Splits into the nodes before `key` and those at or after it.
    private mutating func split(_ node: Int32, _ key: BoardKey) -> (Int32, Int32) {
        guard node >= 0 else { return (-1, -1) }
        let index = Int(node)
        if self.keys[index] < key {
            let (lower, upper) = self.split(self.right[index], key)
            self.right[index] = lower
            self.update(node)
            return (node, upper)
        } else {
            let (lower, upper) = self.split(self.left[index], key)
            self.left[index] = upper
            self.update(node)
            return (lower, node)
        }
    }

    /// Joins two treaps whose keys are all in order (every key of `lower` before every key of `upper`).
    private mutating func merge(_ lower: Int32, _ upper: Int32) -> Int32 {
        if lower < 0 { return upper }
        if upper < 0 { return lower }
        if Self.priority(lower) > Self.priority(upper) {
            self.right[Int(lower)] = self.merge(self.right[Int(lower)], upper)
            self.update(lower)
            return lower
        } else {
            self.left[Int(upper)] = self.merge(lower, self.left[Int(upper)])
            self.update(upper)
            return upper
        }
    }

    private mutating func erase(_ node: Int32, _ key: BoardKey) -> Int32 {
        guard node >= 0 else { return -1 }
        let index = Int(node)
        if self.keys[index] == key { return self.merge(self.left[index], self.right[index]) }
        if key < self.keys[index] {
            self.left[index] = self.erase(self.left[index], key)
        } else {
            self.right[index] = self.erase(self.right[index], key)
        }
        self.update(node)
        return node
    }

    // MARK: The members' table

    private static func tableCapacity(for count: Int) -> Int {
        var capacity = 16
        while capacity < 2 * count { capacity *= 2 }
        return capacity
    }

    private func home(of user: User.ID) -> Int { user.hashValue & (self.table.count - 1) }

    /// The member's node, or the empty slot where it would go.
    private func find(_ user: User.ID) -> (slot: Int, node: Int32?) {
        guard !self.table.isEmpty else { return (0, nil) }
        var slot = self.home(of: user)
        while true {
            let node = self.table[slot]
            if node < 0 { return (slot, nil) }
            if self.keys[Int(node)].user == user { return (slot, node) }
            slot = (slot + 1) & (self.table.count - 1)
        }
    }

    private mutating func place(_ node: Int32) {
        if 2 * (self.members + 1) > self.table.count { self.grow() }
        self.table[self.find(self.keys[Int(node)].user).slot] = node
        self.members += 1
    }

    private mutating func grow() {
        let nodes = self.table.filter { $0 >= 0 }
        self.table = Array(repeating: -1, count: Self.tableCapacity(for: self.members + 1))
        for node in nodes { self.table[self.find(self.keys[Int(node)].user).slot] = node }
    }

    /// Empties the member's slot and moves back the entries after it that probing would no longer reach
    /// (deletion without tombstones).
    private mutating func unplace(_ node: Int32) {
        let mask = self.table.count - 1
        var hole = self.find(self.keys[Int(node)].user).slot
        self.table[hole] = -1
        self.members -= 1
        var slot = (hole + 1) & mask
        while self.table[slot] >= 0 {
            let home = self.home(of: self.keys[Int(self.table[slot])].user)
            // The entry may fill the hole when its home is not within (hole, slot] going round the table.
            let reachable = hole <= slot ? (home <= hole || home > slot) : (home <= hole && home > slot)
            if reachable {
                self.table[hole] = self.table[slot]
                self.table[slot] = -1
                hole = slot
            }
            slot = (slot + 1) & mask
        }
    }
}
