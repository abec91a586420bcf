public import FitCircleCore

/// Every use case of FitCircle, grouped by feature. The HTTP layer holds one of these.
public struct Engine: Sendable {
    public var profile: RuleProfile
    public var accounts: Accounts
    public var profiles: Profiles
    public var activities: Activities
    public var streaks: Streaks
    public var idempotency: Idempotency
    public var replay: Replay

    public init(
        profile: RuleProfile,
        accounts: Accounts,
        profiles: Profiles,
        activities: Activities,
        streaks: Streaks,
        idempotency: Idempotency,
        replay: Replay
    ) {
        self.profile = profile
        self.accounts = accounts
        self.profiles = profiles
        self.activities = activities
        self.streaks = streaks
        self.idempotency = idempotency
        self.replay = replay
    }
}
