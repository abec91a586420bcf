public import FitCircleCore
public import FitCircleStore

/// What the use cases stand on, made once per engine: the store, the rules, the clock, the ids, the
/// analytics recorder and the board events. A use case takes from it what it needs.
public struct EngineContext: Sendable {
    public let store: Store
    /// The app's rule profile, and each person's under the experiments they are in.
    public let rules: Rules
    public let clock: WallClock
    public let ids: IDGenerator
    /// Tells analytics events (and, through them, the operators' webhooks).
    public let analytics: EventRecorder
    /// What moves on circle and challenge boards, for this node's live readers.
    public let boards: BoardEvents

    /// The app's own rule profile.
    public var profile: RuleProfile { self.rules.base }
}
