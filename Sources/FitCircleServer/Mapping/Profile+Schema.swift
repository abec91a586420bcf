import FitCircleAPI
import FitCircleCore

extension Components.Schemas.Profile {
    /// The owner's view of `user`: every field, whatever its visibility.
    init(_ user: User, profile rules: RuleProfile) throws {
        let profile = user.profile
        self.init(
            id: user.id.rawValue,
            email: user.email,
            role: try mapped(user.role),
            displayName: profile.displayName,
            age: profile.age,
            weight: try profile.weightKg.map {
                .init(
                    value: Self.rounded(profile.weightUnit.value(fromKilograms: $0)),
                    unit: try mapped(profile.weightUnit)
                )
            },
            height: profile.heightCm.map { Self.height(centimetres: $0, unit: profile.heightUnit) },
            weightUnit: try mapped(profile.weightUnit),
            heightUnit: try mapped(profile.heightUnit),
            gender: try profile.gender.map(mapped),
            activityBaseline: try profile.activityBaseline.map(mapped),
            timeZone: profile.timeZone,
            photoUrl: profile.photoKey.map { _ in "/api/user/profile/photo" },
            visibility: .init(
                age: try mapped(profile.visibility.age),
                weight: try mapped(profile.visibility.weight),
                height: try mapped(profile.visibility.height),
                photo: try mapped(profile.visibility.photo),
                boardName: try mapped(profile.visibility.boardName)
            ),
            onboardingCompleted: profile.isOnboarded,
            onboardingRequired: rules.onboarding.required && !profile.isOnboarded
        )
    }

    private static func height(centimetres: Double, unit: HeightUnit) -> Components.Schemas.Height {
        switch unit {
        case .cm:
            return .init(unit: .cm, centimeters: Self.rounded(centimetres))
        case .ftIn:
            let totalInches = centimetres / HeightUnit.centimetresPerInch
            var feet = Int(totalInches / 12)
            var inches = Self.rounded(totalInches - Double(feet) * 12)
            if inches >= 12 {
                feet += 1
                inches -= 12
            }
            return .init(unit: .ftIn, centimeters: Self.rounded(centimetres), feet: feet, inches: inches)
        }
    }

    /// One decimal: what a person entered comes back as entered, not as 71.99999.
    private static func rounded(_ value: Double) -> Double {
        (value * 10).rounded() / 10
    }
}

extension ProfileInput {
    /// The form as Core understands it; a height without the numbers its unit needs is refused here.
    init(_ body: Components.Schemas.ProfileUpdate) throws {
        self.init(
            displayName: body.displayName,
            age: body.age,
            weight: body.weight.value,
            weightUnit: try mapped(body.weight.unit),
            height: try body.height.map(Height.init),
            gender: try body.gender.map(mapped),
            activityBaseline: try body.activityBaseline.map(mapped),
            timeZone: body.timeZone,
            visibility: try body.visibility.map(VisibilityInput.init)
        )
    }
}

extension ProfileChange {
    init(_ body: Components.Schemas.ProfileChange) throws {
        self.init(
            displayName: body.displayName,
            age: body.age,
            weight: try body.weight.map { ($0.value, try mapped($0.unit)) },
            height: try body.height.map(ProfileInput.Height.init),
            gender: try body.gender.map(mapped),
            activityBaseline: try body.activityBaseline.map(mapped),
            timeZone: body.timeZone,
            visibility: try body.visibility.map(ProfileInput.VisibilityInput.init)
        )
    }
}

extension ProfileInput.Height {
    init(_ given: Components.Schemas.Height) throws {
        switch given.unit {
        case .cm:
            guard let centimeters = given.centimeters else {
                throw ValidationError(field: "height.centimeters", reason: "is required when unit is cm")
            }
            self = .centimetres(centimeters)
        case .ftIn:
            guard let feet = given.feet else {
                throw ValidationError(field: "height.feet", reason: "is required when unit is ft_in")
            }
            self = .feetAndInches(feet: feet, inches: given.inches ?? 0)
        }
    }
}

extension ProfileInput.VisibilityInput {
    init(_ given: Components.Schemas.Visibility) throws {
        self.init(
            age: try mapped(given.age),
            weight: try mapped(given.weight),
            height: try mapped(given.height),
            photo: try given.photo.map(mapped),
            boardName: try given.boardName.map(mapped)
        )
    }
}
