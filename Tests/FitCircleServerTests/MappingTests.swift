import FitCircleAPI
import FitCircleCore
import FitCircleTesting
import Foundation
import HummingbirdTesting
import OpenAPIRuntime
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
        #expect(self.roundTrips(ActivityVisibility.self, Components.Schemas.ActivityVisibility.self))
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

/// The hand-written date encoding writes exactly what OpenAPIRuntime's ISO 8601 transcoder writes.
struct InternetDateTranscoderTests {
    @Test
    func writesWhatTheStandardTranscoderWrites() throws {
        let (fast, standard) = (InternetDateTranscoder(), ISO8601DateTranscoder())
        var random = SeededRandom(seed: 20_261_122)
        // The epoch, a second before it, leap days, the turn of centuries, the ends of the range, and random
        // instants (some with fractions of a second) from year 1 to 9999.
        let fixed: [TimeInterval] = [0, -1, -0.5, 0.999, 951_782_400, 951_868_799.75, 4_107_542_400, 253_402_300_799, -62_135_596_800, 1_772_442_000]
        let randomOnes = (0..<5_000).map { _ in Double(Int64.random(in: -62_135_596_800...253_402_300_799, using: &random)) + (Bool.random(using: &random) ? 0.25 : 0) }
        for seconds in fixed + randomOnes {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(try fast.encode(date) == (try standard.encode(date)), "at \(seconds)")
        }
        #expect(try fast.decode("2026-03-02T09:00:00Z") == Date(timeIntervalSince1970: 1_772_442_000))
    }

    /// RFC 3339 allows a fraction of a second, and clients write one (Python's generated client did, and was
    /// refused); the standard transcoder refuses it. It is dropped: the API counts whole seconds.
    @Test
    func readsAFractionOfASecondAndDropsIt() throws {
        let transcoder = InternetDateTranscoder()
        let base = Date(timeIntervalSince1970: 1_772_442_000)
        #expect(try transcoder.decode("2026-03-02T09:00:00.250Z") == base)
        #expect(try transcoder.decode("2026-03-02T10:00:00.999+01:00") == base)
        #expect(try transcoder.decode("2026-03-02T09:00:00.123456789-00:00") == base)
        for refused in ["2026-03-02T09:00:00.Z", "2026-03-02T09:00:00.1234567891Z", "2026-03-02T09:00:00.12a4Z", "2026-03-02T09:00:00.25"] {
            #expect(throws: (any Error).self, "\(refused)") { try transcoder.decode(refused) }
        }
    }

    @Test
    func readsWhatTheStandardTranscoderReads() throws {
        let (fast, standard) = (InternetDateTranscoder(), ISO8601DateTranscoder())
        var random = SeededRandom(seed: 20_261_123)
        var texts = [
            "2026-03-02T09:00:00Z", "2026-03-02T09:00:00+05:45", "2026-03-02T09:00:00-11:00", "2028-02-29T23:59:59Z",
            "1583-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "2026-03-08T07:00:00-00:00",
            // Left to the standard transcoder, which reads or refuses them as before.
            "2026-03-02t09:00:00z", "2026-03-02T09:00:60Z", "2026-02-29T09:00:00Z",
            "1500-03-01T00:00:00Z", "2026-03-02T24:00:00Z", "2026-03-02 09:00:00Z", "2026-03-02T09:00:00+0100",
            "2026-03-02", "", "2026-13-02T09:00:00Z", "+026-03-02T09:00:00Z",
        ]
        for _ in 0..<3_000 {
            let date = Date(timeIntervalSince1970: Double(Int64.random(in: -12_212_553_600...253_402_300_799, using: &random)))
            var text = try standard.encode(date)
            if Bool.random(using: &random) {
                let (hours, minutes) = (Int.random(in: 0...18, using: &random), [0, 15, 30, 45, 59].randomElement(using: &random)!)
                text = String(text.dropLast()) + String(format: "%@%02d:%02d", Bool.random(using: &random) ? "+" : "-", hours, minutes)
            }
            texts.append(text)
        }
        for text in texts {
            let expected = try? standard.decode(text)
            #expect((try? fast.decode(text)) == expected, "\(text)")
        }
    }
}
