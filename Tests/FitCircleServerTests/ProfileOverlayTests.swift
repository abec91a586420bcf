import FitCircleCore
import FitCircleEngine
import FitCircleTesting
import Foundation
import Testing

/// A variant's overlay on a real profile: what it changes, and what it may not (issue 24).
struct ProfileOverlayTests {
    static func tree(_ json: String) throws -> JSONTree {
        try JSONDecoder().decode(JSONTree.self, from: Data(json.utf8))
    }

    @Test
    func everyProfileSurvivesTheRoundTripAnOverlayTakes() throws {
        for name in ["fitcircle", "famefit", "pushups", "astrofriends", "social"] {
            let profile = try RuleProfileLoader.load(named: name, from: profilesDirectory)
            #expect(try ProfileOverlay.none.applied(to: profile, field: "overlay") == profile)
            let touched = try ProfileOverlay(try Self.tree(#"{"goals": {}}"#), field: "overlay").applied(
                to: profile,
                field: "overlay"
            )
            #expect(touched == profile, "\(name) does not survive JSON")
        }
    }

    @Test
    func anOverlayChangesFreezesGoalsAndATypeByName() throws {
        let profile = try RuleProfileLoader.load(named: "fitcircle", from: profilesDirectory)
        let overlay = try ProfileOverlay(
            try Self.tree(
                #"{"streaks": {"freezes": {"count": 2, "per": "month"}}, "goals": {"steps": {"moderateDefault": 9000}}, "notifications": {"nonCriticalPerDay": 1, "types": {"steps_to_go": {"at": "19:30"}}}}"#
            ),
            field: "overlay"
        )
        let changed = try overlay.applied(to: profile, field: "overlay")
        #expect(changed.streaks.freezes.count == 2 && changed.streaks.freezes.per == .month)
        #expect(changed.streaks.freezes.automatic == profile.streaks.freezes.automatic)
        #expect(
            changed.goals.steps.moderateDefault == 9000
                && changed.goals.steps.sedentaryDefault == profile.goals.steps.sedentaryDefault
        )
        #expect(changed.notifications.nonCriticalPerDay == 1)
        #expect(changed.notifications["steps_to_go"]?.at == LocalTime(hour: 19, minute: 30))
        #expect(changed.notifications["steps_to_go"]?.title == profile.notifications["steps_to_go"]?.title)
        #expect(changed.notifications.types.count == profile.notifications.types.count)
        #expect(changed.name == profile.name && changed.rewards == profile.rewards)
    }

    @Test
    func anOverlayMayNotTouchWhatIsTheSameForEveryone() throws {
        let profile = try RuleProfileLoader.load(named: "fitcircle", from: profilesDirectory)
        let refused: [(String, String)] = [
            (#"{"streaks": {"basis": "app_open"}}"#, "overlay.streaks.basis"),
            (#"{"rewards": {}}"#, "overlay.rewards"),
            (#"{"week": {"startsOn": "sunday"}}"#, "overlay.week"),
            (
                #"{"notifications": {"types": {"daily_reminder": {"critical": true}}}}"#,
                "overlay.notifications.types.daily_reminder.critical"
            ),
            (#"{"notifications": {"types": []}}"#, "overlay.notifications.types"),
            (#"[1, 2]"#, "overlay"),
        ]
        for (json, field) in refused {
            #expect(throws: ValidationError(field: field, reason: "")) {
                do { _ = try ProfileOverlay(try Self.tree(json), field: "overlay") } catch let error as ValidationError
                {
                    throw ValidationError(field: error.violations[0].field, reason: "")
                }
            }
        }
        // Allowed keys with wrong values fail when applied, naming where.
        for (json, field) in [
            (
                #"{"notifications": {"types": {"no_such_type": {"at": "10:00"}}}}"#,
                "overlay.notifications.types.no_such_type"
            ),
            (#"{"streaks": {"freezes": {"count": "two"}}}"#, "overlay"),
        ] {
            let overlay = try ProfileOverlay(try Self.tree(json), field: "overlay")
            #expect(throws: ValidationError.self) { try overlay.applied(to: profile, field: "overlay") }
            do { _ = try overlay.applied(to: profile, field: "overlay") } catch let error as ValidationError {
                #expect(error.violations[0].field == field, "\(error)")
            }
        }
    }
}
