import FitCircleCore
import FitCircleEngine
import FitCircleTesting
import HummingbirdTesting
import Testing

struct RuleProfileLoaderTests {
    @Test(arguments: ["fitcircle", "pushups", "famefit", "astrofriends", "social"])
    func everyShippedProfileLoads(name: String) throws {
        let profile = try RuleProfileLoader.load(named: name, from: profilesDirectory)
        #expect(profile.name == name)
    }

    /// Spec 000 resets weeks "Monday 12:00 AM"; spec 001's week runs Monday to Sunday.
    @Test(arguments: ["fitcircle", "pushups", "famefit", "astrofriends", "social"])
    func weeksStartOnMonday(name: String) throws {
        #expect(try RuleProfileLoader.load(named: name, from: profilesDirectory).week.startsOn == .monday)
    }

    @Test(arguments: [
        ("startsOn: monday", "startsOn: someday", "week.startsOn"),
        ("required: true", "required: maybe", "onboarding.required"),
        ("timeZone: UTC", "timeZone: Moon/Base", "onboarding.defaults.timeZone"),
        ("age: { min: 13, max: 120 }", "age: { min: 130, max: 120 }", "limits.age"),
        ("  weight: kg\n", "", "units.weight"),
    ])
    func anInvalidProfileIsRefusedNamingTheFileAndTheKey(replace: String, with replacement: String, key: String) throws
    {
        let text = try String(contentsOf: profilesDirectory.appendingPathComponent("fitcircle.yaml"), encoding: .utf8)
        #expect(text.contains(replace))
        let broken = text.replacingOccurrences(of: replace, with: replacement)
        let error = try #require(throws: RuleProfileLoader.InvalidProfile.self) {
            try RuleProfileLoader.parse(broken, file: "profiles/fitcircle.yaml")
        }
        #expect(error.file == "profiles/fitcircle.yaml")
        #expect(error.key == key)
        #expect(error.description.contains("profiles/fitcircle.yaml") && error.description.contains(key))
    }

    @Test func anUnknownProfileNamesTheOnesAvailable() {
        let error = #expect(throws: RuleProfileLoader.InvalidProfile.self) {
            try RuleProfileLoader.load(named: "nope", from: profilesDirectory)
        }
        #expect(error?.description.contains("astrofriends, famefit, fitcircle, pushups, social") == true)
    }
}
