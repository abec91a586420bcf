import FitCircleCore
import Foundation
import Testing

struct ProfileInputTests {
    let limits = RuleProfile.Limits(age: 13...120, weightKg: 20...500, heightCm: 50...272)
    let blank = UserProfile(displayName: "ana", timeZone: "UTC")
    let now = Date(timeIntervalSince1970: 1_772_452_800)

    func input(
        name: String = "Ana",
        age: Int = 34,
        weight: Double = 62.5,
        unit: WeightUnit = .kg,
        height: ProfileInput.Height? = nil,
        timeZone: String = "Europe/Paris"
    ) -> ProfileInput {
        ProfileInput(displayName: name, age: age, weight: weight, weightUnit: unit, height: height, timeZone: timeZone)
    }

    @Test func aValidFormCompletesOnboardingInMetric() throws {
        let profile = try self.input(weight: 150, unit: .lb, height: .feetAndInches(feet: 5, inches: 7))
            .applied(to: self.blank, limits: self.limits, now: self.now)
        #expect(profile.displayName == "Ana")
        #expect(abs(profile.weightKg! - 68.0388555) < 0.0001)
        #expect(profile.weightUnit == .lb)
        #expect(abs(profile.heightCm! - 170.18) < 0.0001)
        #expect(profile.heightUnit == .ftIn)
        #expect(profile.timeZone == "Europe/Paris")
        #expect(profile.onboardedAt == self.now)
    }

    @Test func theDisplayNameIsTrimmed() throws {
        let profile = try self.input(name: "  Ana Lima \n").applied(to: self.blank, limits: self.limits, now: self.now)
        #expect(profile.displayName == "Ana Lima")
    }

    @Test(arguments: [
        (12, false), (13, true), (120, true), (121, false),
    ])
    func agesAreCheckedAtTheBoundaries(age: Int, valid: Bool) {
        let result = Result { try self.input(age: age).applied(to: self.blank, limits: self.limits, now: self.now) }
        #expect(((try? result.get()) != nil) == valid)
    }

    @Test(arguments: [
        (19.9, WeightUnit.kg, false), (20, .kg, true), (500, .kg, true), (500.1, .kg, false),
        (44, .lb, false), (45, .lb, true), (1102, .lb, true), (1103, .lb, false),
    ])
    func weightsAreCheckedInTheUnitGiven(weight: Double, unit: WeightUnit, valid: Bool) {
        let result = Result {
            try self.input(weight: weight, unit: unit).applied(to: self.blank, limits: self.limits, now: self.now)
        }
        #expect(((try? result.get()) != nil) == valid)
    }

    @Test func everyInvalidFieldIsReportedAtOnce() {
        #expect(
            throws: ValidationError([
                FieldViolation(
                    field: "displayName",
                    reason: "must be 1–50 characters (at most 200 bytes in UTF-8) after trimming"
                ),
                FieldViolation(field: "age", reason: "must be between 13 and 120"),
                FieldViolation(field: "weight.value", reason: "must be between 20 and 500 kg"),
                FieldViolation(field: "height.inches", reason: "must be at least 0 and less than 12"),
                FieldViolation(field: "timeZone", reason: "must be an IANA time-zone identifier such as Europe/Paris"),
            ])
        ) {
            try self.input(
                name: "   ",
                age: 7,
                weight: 900,
                height: .feetAndInches(feet: 5, inches: 12),
                timeZone: "Mars/Olympus"
            )
            .applied(to: self.blank, limits: self.limits, now: self.now)
        }
    }

    @Test func aNameLongerThanFiftyCharactersIsRefused() {
        #expect(throws: ValidationError.self) {
            try self.input(name: String(repeating: "a", count: 51)).applied(
                to: self.blank,
                limits: self.limits,
                now: self.now
            )
        }
    }

    @Test func heightsOutsideThePlausibleRangeAreRefused() {
        #expect(throws: ValidationError(field: "height", reason: "must be between 50 and 272 cm")) {
            try self.input(height: .centimetres(300)).applied(to: self.blank, limits: self.limits, now: self.now)
        }
    }

    @Test(arguments: [
        "Europe/Paris", "America/New_York", "Pacific/Kiritimati", "Asia/Kathmandu", "UTC", "Asia/Kolkata",
        "Asia/Calcutta", "Etc/GMT-5",
        "America/Indianapolis", "America/Buenos_Aires", "Asia/Saigon", "Asia/Istanbul", "EST",
    ])
    func ianaZonesAndLinksAreAcceptedAsSent(zone: String) {
        #expect(TimeZoneID.validated(zone) == zone)
    }

    @Test(arguments: [
        "PST", "GMT+5", "", "Europe/Atlantis", "+02:00", "asia/kolkata", "Europe/Paris ", "../etc/passwd",
    ])
    func namesNoIANADatabaseHasAreRefused(zone: String) {
        #expect(TimeZoneID.validated(zone) == nil)
    }

    /// Every zone and link of the IANA database shipped with the system (Debian's `tzdata`), and each one
    /// resolves to offsets the server can use.
    @Test func everyNameOfTheSystemsTimeZoneDatabaseIsAccepted() throws {
        let text = try String(contentsOfFile: "/usr/share/zoneinfo/tzdata.zi", encoding: .utf8)
        let names = TimeZoneID.ianaNames(in: text)
        #expect(names.count > 550, "\(names.count) names")
        let refused = names.filter { TimeZoneID.validated($0) == nil }
        #expect(refused.isEmpty, "refused: \(refused)")
        #expect(
            names.allSatisfy {
                TimeZone(identifier: $0)?.secondsFromGMT(for: Date(timeIntervalSince1970: 1_750_000_000)) != nil
            }
        )
    }

    @Test func aNewAccountIsOnboardedOnlyWhenTheProfileAllowsSkipping() {
        let required = RuleProfile.Onboarding(required: true, defaults: .init(timeZone: "UTC"))
        let optional = RuleProfile.Onboarding(required: false, defaults: .init(timeZone: "UTC", age: 30, weightKg: 70))
        let units = RuleProfile.Units(weight: .kg, height: .cm, distance: .km)
        let strict = UserProfile.initial(
            suggestedName: nil,
            email: "bo@example.com",
            timeZone: "Asia/Tokyo",
            onboarding: required,
            units: units,
            now: self.now
        )
        let relaxed = UserProfile.initial(
            suggestedName: "Bo",
            email: "bo@example.com",
            timeZone: "Nowhere/Land",
            onboarding: optional,
            units: units,
            now: self.now
        )
        #expect(strict == UserProfile(displayName: "bo", timeZone: "Asia/Tokyo"))
        #expect(
            relaxed == UserProfile(displayName: "Bo", age: 30, weightKg: 70, timeZone: "UTC", onboardedAt: self.now)
        )
    }
}
