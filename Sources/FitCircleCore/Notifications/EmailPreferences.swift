/// The email part of a user's notification preferences (spec 000's `email_preferences`): the email master
/// switch and, for every type that can go by email, its email switch. A view of `NotificationPreferences`,
/// not a second store: reading and writing either shows in the other.
public struct EmailPreferences: Equatable, Sendable {
    public var enabled: Bool
    public var types: [String: Bool]

    public init(enabled: Bool, types: [String: Bool]) {
        self.enabled = enabled
        self.types = types
    }

    /// The types that can go by email: an email channel, or email when push cannot reach the user.
    public static func emailTypes(in catalog: NotificationCatalog) -> [NotificationType] {
        catalog.types.filter { $0.channels.contains(.email) || $0.emailFallback }
    }

    public init(_ preferences: NotificationPreferences, catalog: NotificationCatalog) {
        self.enabled = preferences.email
        self.types = Dictionary(
            uniqueKeysWithValues: Self.emailTypes(in: catalog).map { ($0.type, preferences.typeSwitch($0, on: .email)) }
        )
    }

    /// A partial update of the email part: what the request names changes, the rest stays as stored. It is
    /// applied to the stored preferences inside the saving transaction, so two concurrent saves both land.
    public struct Change: Equatable, Sendable {
        public var enabled: Bool?
        public var types: [String: Bool]

        public init(enabled: Bool? = nil, types: [String: Bool] = [:]) {
            self.enabled = enabled
            self.types = types
        }

        /// `preferences` with this change; a type that cannot go by email, or a critical one turned off, is
        /// refused with its field named.
        public func applied(to preferences: NotificationPreferences, catalog: NotificationCatalog) throws
            -> NotificationPreferences
        {
            var validator = Validator()
            let emailTypes = Set(EmailPreferences.emailTypes(in: catalog).map(\.type))
            for type in self.types.keys.sorted() where !emailTypes.contains(type) {
                validator.check(false, "types.\(type)", "is not a notification type that goes by email")
            }
            try validator.throwIfInvalid()
            var updated = preferences
            if let enabled = self.enabled { updated.email = enabled }
            for (type, on) in self.types { updated.types[type, default: [:]][.email] = on }
            try updated.validate(against: catalog)
            return updated
        }
    }
}
