import FitCircleCore
import Synchronization

/// The answers a hot read wrote, each kept with the version it was built at, to be served again while the
/// version is unchanged (`CircleBoardRead`). Bounded by `RecentlyUsed`: at most `capacity` answers (a board's
/// page is about 3 KB), those read again lately staying.
final class KeptAnswers<Key: Hashable & Sendable, Version: Sendable>: Sendable {
    struct Kept: Sendable {
        var version: Version
        var answer: HotAnswer
    }

    private let state: Mutex<RecentlyUsed<Key, Kept>>

    init(capacity: Int = 8_192) {
        self.state = Mutex(RecentlyUsed(capacity: capacity))
    }

    /// The answer kept for `key` at `version`, if any.
    func answer(_ key: Key, at version: Version) -> HotAnswer? where Version: Equatable {
        self.answer(key) { $0 == version }
    }

    /// The answer kept for `key` if its version is `current`.
    func answer(_ key: Key, if current: (Version) -> Bool) -> HotAnswer? {
        guard let kept = self.state.withLock({ $0.value(for: key) }), current(kept.version) else { return nil }
        return kept.answer
    }

    /// Whether anything is kept for `key` (at any version): only then is the version worth asking for.
    func holds(_ key: Key) -> Bool {
        self.state.withLock { $0.contains(key) }
    }

    func keep(_ answer: HotAnswer, for key: Key, at version: Version) {
        self.state.withLock { $0.insert(Kept(version: version, answer: answer), for: key) }
    }
}
