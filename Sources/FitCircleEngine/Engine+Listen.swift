public import FitCircleStore
public import Logging

extension Engine {
    /// Hears the other nodes (PostgreSQL `LISTEN`) until cancelled: circle events for this node's boards and
    /// streams, inbox wakes for its inbox streams. Returns at once on SQLite (one process hears itself);
    /// after a failure listens again, and what may have been missed meanwhile is looked at afresh.
    public func listen(to store: Store, logger: Logger) async {
        while !Task.isCancelled {
            do {
                try await store.listen { payload in
                    self.circles.events.received(payload)
                    self.notifications.received(payload)
                }
                return
            } catch {
                logger.warning("The listener to other nodes failed; listening again", metadata: ["error": "\(error)"])
                self.circles.events.missedMessages()
                self.notifications.missedMessages()
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }
}
