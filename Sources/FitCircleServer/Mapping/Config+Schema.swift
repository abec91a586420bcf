import FitCircleAPI
import FitCircleCore
import FitCircleEngine

extension Components.Schemas.Config {
    init(_ profile: RuleProfile, signIn: AvailableSignIn) throws {
        self.init(
            profile: profile.name,
            goals: .init(
                daily: try profile.goals.daily.map { try mapped($0) },
                weekly: try profile.goals.weekly.map { try mapped($0) }
            ),
            reactions: profile.activities.reactions,
            description: profile.description,
            onboardingRequired: profile.onboarding.required,
            weekStartsOn: try mapped(profile.week.startsOn),
            units: .init(
                weight: try mapped(profile.units.weight),
                height: try mapped(profile.units.height),
                distance: try mapped(profile.units.distance)
            ),
            limits: .init(
                minAge: profile.limits.age.lowerBound,
                maxAge: profile.limits.age.upperBound,
                minWeightKg: profile.limits.weightKg.lowerBound,
                maxWeightKg: profile.limits.weightKg.upperBound,
                minHeightCm: profile.limits.heightCm.lowerBound,
                maxHeightCm: profile.limits.heightCm.upperBound
            ),
            signIn: .init(google: signIn.google, apple: signIn.apple, dev: signIn.dev),
            events: try profile.eventSchemas.sorted { $0.key < $1.key }.map { name, schema in
                .init(
                    name: name,
                    description: schema.description,
                    properties: try schema.properties.sorted { $0.key < $1.key }.map { property, rule in
                        .init(
                            name: property,
                            _type: try mapped(rule.type),
                            required: rule.required,
                            values: rule.values
                        )
                    }
                )
            }
        )
    }
}
