public import Foundation

/// The one way FitCircle code learns what time it is: an injected function, so tests pick the instant.
public struct WallClock: Sendable {
    public var now: @Sendable () -> Date

    public init(now: @escaping @Sendable () -> Date) {
        self.now = now
    }

    /// The real clock; only the executable constructs it.
    public static let system = WallClock { Date() }

    /// A clock stopped at `instant`.
    public static func fixed(_ instant: Date) -> WallClock {
        WallClock { instant }
    }
}
