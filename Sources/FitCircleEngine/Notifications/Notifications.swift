public import FitCircleCore
public import FitCircleStore
import Foundation

/// The user's side of notifications: their preferences, checked against the profile's catalog.
public struct Notifications: Sendable {
    let store: Store
    let profile: RuleProfile
    let clock: WallClock

    public init(store: Store, profile: RuleProfile, clock: WallClock) {
        self.store = store
        self.profile = profile
        self.clock = clock
    }

    public var catalog: NotificationCatalog { self.profile.notifications }

    /// The user's preferences (the defaults until they change any).
    public func preferences(of user: User.ID) async throws -> NotificationPreferences {
        try await self.store.read { tx in try await tx.notificationPreferences(of: user) } ?? .defaults
    }

    /// Replaces the preferences when every field is valid; a critical type cannot be turned off.
    public func update(_ preferences: NotificationPreferences, of user: User.ID) async throws -> NotificationPreferences {
        try preferences.validate(against: self.catalog)
        try await self.store.transaction { tx in try await tx.save(preferences, of: user, at: self.clock.now()) }
        return preferences
    }
}
