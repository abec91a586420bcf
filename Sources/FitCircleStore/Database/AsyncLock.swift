/// A first-come, first-served lock for async code: SQLite has one writer, so transactions take turns.
actor AsyncLock {
    private var isLocked = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func lock() async {
        guard self.isLocked else {
            self.isLocked = true
            return
        }
        await withCheckedContinuation { self.waiters.append($0) }
    }

    func unlock() {
        if self.waiters.isEmpty {
            self.isLocked = false
        } else {
            // Ownership passes straight to the next waiter; the lock stays held.
            self.waiters.removeFirst().resume()
        }
    }
}
