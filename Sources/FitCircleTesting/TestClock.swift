public import FitCircleCore
public import Foundation
import Synchronization

extension Date {
    /// 2026-03-02 12:00:00 UTC, a Monday. Named instants read better than literals scattered through tests.
    public static let t0 = Date(timeIntervalSince1970: 1_772_452_800)
}

/// A clock tests move by hand.
public final class TestClock: Sendable {
    private let instant: Mutex<Date>

    public init(_ start: Date = .t0) {
        self.instant = Mutex(start)
    }

    public var now: Date { self.instant.withLock { $0 } }

    public func advance(by interval: TimeInterval) {
        self.instant.withLock { $0 = $0.addingTimeInterval(interval) }
    }

    public func set(_ date: Date) {
        self.instant.withLock { $0 = date }
    }

    public var wallClock: WallClock { WallClock { self.now } }
}
