public import FitCircleCore

/// Every use case of FitCircle, grouped by feature. The HTTP layer holds one of these.
public struct Engine: Sendable {
    public var profile: RuleProfile
    public var accounts: Accounts
    public var profiles: Profiles

    public init(profile: RuleProfile, accounts: Accounts, profiles: Profiles) {
        self.profile = profile
        self.accounts = accounts
        self.profiles = profiles
    }
}
