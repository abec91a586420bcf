/// A business rule's refusal of a request the caller could act on: which rule (a problem type of its own,
/// `/problems/<kind>`, in openapi.yaml's catalogue, so clients switch on it rather than on words), the reason
/// in words, and the figures a client needs to act (how much XP is missing, when the next freeze comes).
public struct Refusal: Error, Equatable, Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        /// A stake larger than the caller's XP (`xpNeeded`, `xpAvailable`).
        case insufficientXP = "insufficient-xp"
        /// A freeze asked for a period that already counts, or is already frozen.
        case freezeNotNeeded = "freeze-not-needed"
        /// No freeze left until the next comes (`nextFreezeOn`).
        case noFreezeLeft = "no-freeze-left"
        /// A streak that cannot be protected (none yet, or the last period was already missed).
        case streakNotProtectable = "streak-not-protectable"
        /// The day's check-in is already made.
        case alreadyCheckedIn = "already-checked-in"
        /// A member encouraging their own news, or a reaction to what takes none.
        case notEncourageable = "not-encourageable"
        /// A goal that the server tracks itself (from check-ins or recorded activity), not by hand.
        case trackedAutomatically = "tracked-automatically"
        /// A challenge that has ended, was cancelled, or has started (leaving).
        case challengeClosed = "challenge-closed"
        /// A challenge or circle at its size (`limit`).
        case full = "full"
        /// A circle that is archived.
        case circleArchived = "circle-archived"
        /// Someone who is already a member.
        case alreadyMember = "already-member"
        /// Someone removed from the circle, until the ban is lifted.
        case banned = "banned"
        /// A count at its maximum: friends, waiting requests, webhook endpoints (`limit`).
        case limitReached = "limit-reached"
        /// A day or period that no longer takes this: a locked submission day, a goal of another day, a day
        /// outside the competition.
        case periodClosed = "period-closed"
        /// A competition whose start has passed, so its rules no longer change.
        case alreadyStarted = "already-started"
        /// A state that does not allow this change (an experiment's, a job's, a delivery's).
        case wrongState = "wrong-state"
        /// Deleting the account needs a sign-in of the last 10 minutes (403).
        case freshSignInRequired = "fresh-sign-in-required"
    }

    /// A figure a client may act on, sent as a member of the problem document.
    public enum Fact: Equatable, Sendable {
        case number(Int)
        case text(String)
    }

    public var kind: Kind
    public var reason: String
    public var facts: [String: Fact]

    public init(_ kind: Kind, _ reason: String, facts: [String: Fact] = [:]) {
        self.kind = kind
        self.reason = reason
        self.facts = facts
    }
}
