import Synchronization

/// The answers a hot read wrote, each kept with the version it was built at, to be served again while the
/// version is unchanged (`CircleBoardRead`). Bounded: two generations of at most `capacity / 2` answers each;
/// when the newer fills, the older is let go, so an answer read again lately survives (it moves to the
/// newer) and memory stays under `capacity` answers (a board's page is about 3 KB).
final class KeptAnswers<Key: Hashable & Sendable, Version: Hashable & Sendable>: Sendable {
    struct Kept: Sendable {
        var version: Version
        var answer: HotAnswer
    }

    private let state = Mutex<(newer: [Key: Kept], older: [Key: Kept])>(([:], [:]))
    let capacity: Int

    init(capacity: Int = 8_192) {
        self.capacity = max(2, capacity)
    }

    /// The answer kept for `key` at `version`, if any.
    func answer(_ key: Key, at version: Version) -> HotAnswer? {
        self.state.withLock { state in
            if let kept = state.newer[key] { return kept.version == version ? kept.answer : nil }
            guard let kept = state.older.removeValue(forKey: key), kept.version == version else { return nil }
            Self.insert(key, kept, into: &state, capacity: self.capacity)
            return kept.answer
        }
    }

    /// Whether anything is kept for `key` (at any version): only then is the version worth asking for.
    func holds(_ key: Key) -> Bool {
        self.state.withLock { $0.newer[key] != nil || $0.older[key] != nil }
    }

    func keep(_ answer: HotAnswer, for key: Key, at version: Version) {
        self.state.withLock { state in
            state.older[key] = nil
            Self.insert(key, Kept(version: version, answer: answer), into: &state, capacity: self.capacity)
        }
    }

    private static func insert(_ key: Key, _ kept: Kept, into state: inout (newer: [Key: Kept], older: [Key: Kept]), capacity: Int) {
        if state.newer.count >= capacity / 2, state.newer[key] == nil {
            state.older = state.newer
            state.newer = [:]
        }
        state.newer[key] = kept
    }
}
