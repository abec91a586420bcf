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

    /// The answer kept for `key` if its version is `current`.
    func answer(_ key: Key, if current: (Version) -> Bool) -> HotAnswer? {
        guard let kept = self.state.withLock({ $0.value(for: key) }), current(kept.version) else { return nil }
        return kept.answer
    }

    /// The answer kept for `key` if it is at the version `current` gives. `current` is asked only when an
    /// answer is kept: asking may cost (a board's version decides access and records the view).
    func answer(_ key: Key, at current: () async throws -> Version?) async rethrows -> HotAnswer?
    where Version: Equatable {
        guard let kept = self.state.withLock({ $0.value(for: key) }), let version = try await current(),
            kept.version == version
        else { return nil }
        return kept.answer
    }

    func keep(_ answer: HotAnswer, for key: Key, at version: Version) {
        self.state.withLock { $0.insert(Kept(version: version, answer: answer), for: key) }
    }
}
