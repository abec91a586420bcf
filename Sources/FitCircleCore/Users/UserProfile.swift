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
    /// Told at onboarding; without it the step goal's first days follow the training level.
    public var activityBaseline: ActivityBaseline?
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
        activityBaseline: ActivityBaseline? = nil,
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
        self.activityBaseline = activityBaseline
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
        let name =
            suggestedName.flatMap(TextRule.displayName.fitted) ?? TextRule.displayName.fitted(fromEmail) ?? "Athlete"
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
    /// The identifier, kept as sent, when it names a zone or a link of the IANA time-zone database that
    /// the server can resolve (`Asia/Kolkata` and its old name `Asia/Calcutta`, `Etc/GMT-5`,
    /// `America/Indianapolis`, `UTC`), else `nil`. Names only ICU knows (`PST`), ad-hoc offsets (`GMT+5`,
    /// `+02:00`) and names in another case are refused.
    public static func validated(_ identifier: String) -> String? {
        guard Self.names.contains(identifier), TimeZone(identifier: identifier) != nil else { return nil }
        return identifier
    }

    /// The IANA database's names as the system ships them (`tzdata.zi`: `Z` lines name zones, `L` lines
    /// links), read once; Foundation's list (CLDR's canonical names, which lack `Asia/Kolkata` and every
    /// link) only where the system has no database.
    static let names: Set<String> = {
        let directory = ProcessInfo.processInfo.environment["TZDIR"] ?? "/usr/share/zoneinfo"
        guard let text = try? String(contentsOfFile: directory + "/tzdata.zi", encoding: .utf8) else {
            return Set(TimeZone.knownTimeZoneIdentifiers).union(["UTC", "Etc/UTC"])
        }
        return Set(Self.ianaNames(in: text))
    }()

    /// The zone and link names of a `tzdata.zi` text.
    public static func ianaNames(in text: String) -> [String] {
        text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            switch fields.first {
            case "Z" where fields.count > 1: return String(fields[1])
            case "L" where fields.count > 2: return String(fields[2])
            default: return nil
            }
        }
    }
}
