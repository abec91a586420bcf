import Foundation

/// A value shared between threads behind a lock (the SDK runs on iOS 16, before `Mutex`).
final class LockedValue<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func get() -> Value {
        self.lock.withLock { self.value }
    }

    func set(_ value: Value) {
        self.lock.withLock { self.value = value }
    }

    @discardableResult
    func update<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try self.lock.withLock { try body(&self.value) }
    }
}
