public import Foundation

/// A change of some of the profile's fields (`PATCH /api/user/profile`): what it leaves out keeps its value.
/// A profile not onboarded yet has no age, weight or zone to keep, so a change must then give them.
public struct ProfileChange: Sendable {
    public var displayName: String?
    public var age: Int?
    public var weight: (value: Double, unit: WeightUnit)?
    public var height: ProfileInput.Height?
    public var gender: Gender?
    public var activityBaseline: ActivityBaseline?
    public var timeZone: String?
    public var visibility: ProfileInput.VisibilityInput?

    public init(
        displayName: String? = nil,
        age: Int? = nil,
        weight: (value: Double, unit: WeightUnit)? = nil,
        height: ProfileInput.Height? = nil,
        gender: Gender? = nil,
        activityBaseline: ActivityBaseline? = nil,
        timeZone: String? = nil,
        visibility: ProfileInput.VisibilityInput? = nil
    ) {
        self.displayName = displayName
        self.age = age
        self.weight = weight
        self.height = height
        self.gender = gender
        self.activityBaseline = activityBaseline
        self.timeZone = timeZone
        self.visibility = visibility
    }

    /// The profile with this change, validated as the whole form is (`ProfileInput.applied`); the fields
    /// left out are kept exactly as stored (a weight is not converted to its unit and back).
    public func applied(to profile: UserProfile, limits: RuleProfile.Limits, now: Date) throws(ValidationError)
        -> UserProfile
    {
        var validator = Validator()
        validator.check(self.age != nil || profile.age != nil, "age", "is required (the profile has none yet)")
        validator.check(
            self.weight != nil || profile.weightKg != nil,
            "weight",
            "is required (the profile has none yet)"
        )
        try validator.throwIfInvalid()
        let weight = self.weight ?? (profile.weightUnit.value(fromKilograms: profile.weightKg ?? 0), profile.weightUnit)
        let form = ProfileInput(
            displayName: self.displayName ?? profile.displayName,
            age: self.age ?? profile.age ?? 0,
            weight: weight.value,
            weightUnit: weight.unit,
            height: self.height,
            gender: self.gender ?? profile.gender,
            activityBaseline: self.activityBaseline,
            timeZone: self.timeZone ?? profile.timeZone,
            visibility: self.visibility
        )
        var changed = try form.applied(to: profile, limits: limits, now: now)
        if self.weight == nil { (changed.weightKg, changed.weightUnit) = (profile.weightKg, profile.weightUnit) }
        if self.height == nil { (changed.heightCm, changed.heightUnit) = (profile.heightCm, profile.heightUnit) }
        return changed
    }
}
