public import Foundation

/// What a handler throws to have its job tried again no sooner than `after` seconds (a provider's
/// `Retry-After`), and no sooner than the backoff; any other error is retried with the backoff alone.
public struct RetryLater: Error, Equatable, CustomStringConvertible {
    public var reason: String
    public var after: TimeInterval?

    public init(reason: String, after: TimeInterval?) {
        self.reason = reason
        self.after = after
    }

    public var description: String { self.after.map { "\(self.reason) (retry after \(Int($0)) s)" } ?? self.reason }
}
