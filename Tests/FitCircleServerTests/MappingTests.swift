import FitCircleAPI
import FitCircleCore
import HummingbirdTesting
import Testing

@testable import FitCircleServer

/// Core enums and their generated twins share raw values; `mapped` relies on it.
struct MappingTests {
    func roundTrips<Core: CaseIterable & RawRepresentable, Schema: CaseIterable & RawRepresentable>(
        _: Core.Type,
        _: Schema.Type
    ) -> Bool where Core.RawValue == String, Schema.RawValue == String {
        Set(Core.allCases.map(\.rawValue)) == Set(Schema.allCases.map(\.rawValue))
    }

    @Test func everyEnumHasTheSameCasesOnBothSides() {
        #expect(self.roundTrips(WeightUnit.self, Components.Schemas.WeightUnit.self))
        #expect(self.roundTrips(HeightUnit.self, Components.Schemas.HeightUnit.self))
        #expect(self.roundTrips(DistanceUnit.self, Components.Schemas.DistanceUnit.self))
        #expect(self.roundTrips(Gender.self, Components.Schemas.Gender.self))
        #expect(self.roundTrips(Audience.self, Components.Schemas.Audience.self))
        #expect(self.roundTrips(Weekday.self, Components.Schemas.Weekday.self))
        #expect(self.roundTrips(User.Role.self, Components.Schemas.Profile.RolePayload.self))
        #expect(self.roundTrips(FitCircle.Metric.self, Components.Schemas.FitCircle.MetricPayload.self))
        #expect(self.roundTrips(FitCircle.Privacy.self, Components.Schemas.FitCircle.PrivacyPayload.self))
        #expect(self.roundTrips(CircleRole.self, Components.Schemas.CircleMember.RolePayload.self))
        #expect(self.roundTrips(FitCircle.Metric.self, Components.Schemas.FitCircleInput.MetricPayload.self))
        #expect(self.roundTrips(FitCircle.Privacy.self, Components.Schemas.FitCircleInput.PrivacyPayload.self))
        #expect(self.roundTrips(CircleRole.self, Components.Schemas.FitCircle.RolePayload.self))
        #expect(self.roundTrips(CircleRole.self, Components.Schemas.CircleRoleChange.RolePayload.self))
    }
}
