import FitCircleCore
import Foundation
import Testing

@testable import FitCircleEngine

/// The trigger payload is written by hand (`Trigger.payload`); `fire` reads it with `JSONDecoder`, and
/// triggers queued before were written by `JSONEncoder`: both must read back as the same trigger.
struct ReminderTriggerPayloadTests {
    @Test(arguments: [
        ReminderPlanner.Trigger(
            type: "streak_at_risk",
            date: LocalDate(clampingYear: 2026, month: 3, day: 29),
            users: ["019cae6b-6600-7000-8000-000000000001", "bench-7"],
            plannedAt: 1_774_742_400_123,
            zone: "Europe/Paris"
        ),
        ReminderPlanner.Trigger(
            type: "daily_checkin_reminder",
            date: LocalDate(clampingYear: 2026, month: 11, day: 1),
            users: [#"a "quoted"\id"#, "tab\there", "é—ü"],
            plannedAt: nil,
            zone: nil
        ),
        ReminderPlanner.Trigger(type: "x", date: LocalDate(clampingYear: 2026, month: 1, day: 1), users: []),
    ])
    func aPayloadWrittenByHandReadsBackAsTheTriggerAndAsJSONEncodersDoes(_ trigger: ReminderPlanner.Trigger) throws {
        let byHand = try JSONDecoder().decode(ReminderPlanner.Trigger.self, from: Data(trigger.payload.utf8))
        #expect(byHand == trigger)
        let encoded = try JSONEncoder().encode(trigger)
        #expect(try JSONDecoder().decode(ReminderPlanner.Trigger.self, from: encoded) == byHand)
        let handObject = try JSONSerialization.jsonObject(with: Data(trigger.payload.utf8)) as? NSDictionary
        let encodedObject = try JSONSerialization.jsonObject(with: encoded) as? NSDictionary
        #expect(handObject == encodedObject)
    }
}
