import FitCircleAPI
import FitCircleCore
import FitCircleEngine

extension Components.Schemas.Config {
    init(_ profile: RuleProfile, signIn: AvailableSignIn) {
        self.init(
            profile: profile.name,
            goals: .init(daily: profile.goals.daily.map { mapped($0) }, weekly: profile.goals.weekly.map { mapped($0) }),
            reactions: profile.activities.reactions,
            description: profile.description,
            onboardingRequired: profile.onboarding.required,
            weekStartsOn: mapped(profile.week.startsOn),
            units: .init(weight: mapped(profile.units.weight), height: mapped(profile.units.height), distance: mapped(profile.units.distance)),
            limits: .init(
                minAge: profile.limits.age.lowerBound,
                maxAge: profile.limits.age.upperBound,
                minWeightKg: profile.limits.weightKg.lowerBound,
                maxWeightKg: profile.limits.weightKg.upperBound,
                minHeightCm: profile.limits.heightCm.lowerBound,
                maxHeightCm: profile.limits.heightCm.upperBound
            ),
            signIn: .init(google: signIn.google, apple: signIn.apple, dev: signIn.dev),
            events: profile.eventSchemas.sorted { $0.key < $1.key }.map { name, schema in
                .init(
                    name: name, description: schema.description,
                    properties: schema.properties.sorted { $0.key < $1.key }.map { property, rule in
                        .init(name: property, _type: .init(rawValue: rule.type.rawValue)!, required: rule.required, values: rule.values)
                    })
            }
        )
    }
}
