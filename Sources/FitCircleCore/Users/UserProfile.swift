public import Foundation

/// What a user tells about themselves, stored in metric units with the unit they prefer to see.
public struct UserProfile: Equatable, Sendable {
    public var displayName: String
    public var age: Int?
    public var weightKg: Double?
    public var weightUnit: WeightUnit
    public var heightCm: Double?
    public var heightUnit: HeightUnit
    public var gender: Gender?
    public var timeZone: String
    public var visibility: FieldVisibility
    public var photoKey: String?
    /// When the user completed onboarding; `nil` while the profile is incomplete.
    public var onboardedAt: Date?

    public init(
        displayName: String,
        age: Int? = nil,
        weightKg: Double? = nil,
        weightUnit: WeightUnit = .kg,
        heightCm: Double? = nil,
        heightUnit: HeightUnit = .cm,
        gender: Gender? = nil,
        timeZone: String,
        visibility: FieldVisibility = .default,
        photoKey: String? = nil,
        onboardedAt: Date? = nil
    ) {
        self.displayName = displayName
        self.age = age
        self.weightKg = weightKg
        self.weightUnit = weightUnit
        self.heightCm = heightCm
        self.heightUnit = heightUnit
        self.gender = gender
        self.timeZone = timeZone
        self.visibility = visibility
        self.photoKey = photoKey
        self.onboardedAt = onboardedAt
    }

    /// The profile a new account starts with: a name from the identity provider (or the email's local part)
    /// and the profile's defaults. Under a profile that does not require onboarding it counts as onboarded.
    public static func initial(
        suggestedName: String?,
        email: String,
        timeZone: String?,
        onboarding: RuleProfile.Onboarding,
        units: RuleProfile.Units,
        now: Date
    ) -> UserProfile {
        let fromEmail = email.split(separator: "@").first.map(String.init) ?? email
        let name = suggestedName.flatMap(TextRule.displayName.fitted) ?? TextRule.displayName.fitted(fromEmail) ?? "Athlete"
        return UserProfile(
            displayName: name,
            age: onboarding.required ? nil : onboarding.defaults.age,
            weightKg: onboarding.required ? nil : onboarding.defaults.weightKg,
            weightUnit: units.weight,
            heightUnit: units.height,
            timeZone: timeZone.flatMap(TimeZoneID.validated) ?? onboarding.defaults.timeZone,
            onboardedAt: onboarding.required ? nil : now
        )
    }

    public var isOnboarded: Bool { self.onboardedAt != nil }

    /// The photo with its audience, as lists of people carry it.
    public var photo: PersonPhoto? { self.photoKey.map { PersonPhoto(key: $0, audience: self.visibility.photo) } }
}

/// IANA time-zone identifiers.
public enum TimeZoneID {
    /// The identifier when it names an IANA zone Foundation knows (`Europe/Paris`, `UTC`), else `nil`.
    /// Abbreviations such as `EST` and offsets such as `GMT+5` are refused: they carry no DST rules.
    public static func validated(_ identifier: String) -> String? {
        guard Self.known.contains(identifier), TimeZone(identifier: identifier) != nil else { return nil }
        return identifier
    }

    private static let known: Set<String> = Set(TimeZone.knownTimeZoneIdentifiers).union(["UTC", "Etc/UTC"])
}
