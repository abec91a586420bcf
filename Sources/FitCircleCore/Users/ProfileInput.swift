public import Foundation

/// The onboarding form as a client sends it, before validation.
public struct ProfileInput: Equatable, Sendable {
    public var displayName: String
    public var age: Int
    public var weight: Double
    public var weightUnit: WeightUnit
    public var height: Height?
    public var gender: Gender?
    /// Absent: keeps what was told before.
    public var activityBaseline: ActivityBaseline?
    public var timeZone: String
    public var visibility: VisibilityInput?

    /// The audiences as sent: the three sensitive fields always, the photo and the board name when the app
    /// knows them (an app that does not keeps what was set).
    public struct VisibilityInput: Equatable, Sendable {
        public var age: Audience
        public var weight: Audience
        public var height: Audience
        public var photo: Audience?
        public var boardName: Audience?

        public init(
            age: Audience,
            weight: Audience,
            height: Audience,
            photo: Audience? = nil,
            boardName: Audience? = nil
        ) {
            self.age = age
            self.weight = weight
            self.height = height
            self.photo = photo
            self.boardName = boardName
        }

        func applied(to visibility: FieldVisibility) -> FieldVisibility {
            FieldVisibility(
                age: self.age,
                weight: self.weight,
                height: self.height,
                photo: self.photo ?? visibility.photo,
                boardName: self.boardName ?? visibility.boardName
            )
        }
    }

    /// A height in the unit the user entered it.
    public enum Height: Equatable, Sendable {
        case centimetres(Double)
        case feetAndInches(feet: Int, inches: Double)
    }

    public init(
        displayName: String,
        age: Int,
        weight: Double,
        weightUnit: WeightUnit,
        height: Height? = nil,
        gender: Gender? = nil,
        activityBaseline: ActivityBaseline? = nil,
        timeZone: String,
        visibility: VisibilityInput? = nil
    ) {
        self.displayName = displayName
        self.age = age
        self.weight = weight
        self.weightUnit = weightUnit
        self.height = height
        self.gender = gender
        self.activityBaseline = activityBaseline
        self.timeZone = timeZone
        self.visibility = visibility
    }

    /// Applies this form to `profile` when every field is valid; otherwise throws every violation and
    /// leaves nothing half-applied (the caller's value is untouched).
    public func applied(to profile: UserProfile, limits: RuleProfile.Limits, now: Date) throws(ValidationError)
        -> UserProfile
    {
        var validator = Validator()
        let name = validator.text(self.displayName, "displayName", .displayName)
        validator.check(
            limits.age.contains(self.age),
            "age",
            "must be between \(limits.age.lowerBound) and \(limits.age.upperBound)"
        )

        let weightKg = self.weightUnit.kilograms(self.weight)
        let weightRange = limits.weightKg.lowerBound.rounded()...limits.weightKg.upperBound.rounded()
        validator.check(
            self.weight.isFinite && limits.weightKg.contains(weightKg),
            "weight.value",
            "must be between \(Self.format(self.weightUnit.value(fromKilograms: weightRange.lowerBound))) and "
                + "\(Self.format(self.weightUnit.value(fromKilograms: weightRange.upperBound))) \(self.weightUnit.rawValue)"
        )

        let heightCm = self.height.map(Self.centimetres)
        if let height = self.height {
            if case .feetAndInches(let feet, let inches) = height {
                validator.check(feet >= 0, "height.feet", "must not be negative")
                validator.check(inches >= 0 && inches < 12, "height.inches", "must be at least 0 and less than 12")
            }
            validator.check(
                heightCm.map { $0.isFinite && limits.heightCm.contains($0) } ?? false,
                "height",
                "must be between \(Self.format(limits.heightCm.lowerBound)) and \(Self.format(limits.heightCm.upperBound)) cm"
            )
        }
        let zone = TimeZoneID.validated(self.timeZone)
        validator.check(zone != nil, "timeZone", "must be an IANA time-zone identifier such as Europe/Paris")
        try validator.throwIfInvalid()

        var updated = profile
        updated.displayName = name ?? profile.displayName
        updated.age = self.age
        updated.weightKg = weightKg
        updated.weightUnit = self.weightUnit
        updated.heightCm = heightCm
        if let height = self.height {
            updated.heightUnit = if case .centimetres = height { .cm } else { .ftIn }
        }
        updated.gender = self.gender
        updated.activityBaseline = self.activityBaseline ?? profile.activityBaseline
        updated.timeZone = zone ?? profile.timeZone
        updated.visibility = self.visibility?.applied(to: profile.visibility) ?? profile.visibility
        updated.onboardedAt = profile.onboardedAt ?? now
        return updated
    }

    static func centimetres(_ height: Height) -> Double {
        switch height {
        case .centimetres(let value): value
        case .feetAndInches(let feet, let inches): (Double(feet) * 12 + inches) * HeightUnit.centimetresPerInch
        }
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
    }
}
