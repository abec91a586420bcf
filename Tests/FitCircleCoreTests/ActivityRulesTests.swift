import FitCircleCore
import Foundation
import Testing

struct ActivityRulesTests {
    static let now = Date(timeIntervalSince1970: 1_772_452_800)
    static let limits = RuleProfile.Limits(age: 13...120, weightKg: 20...500, heightCm: 50...272)

    func fields(of payload: ActivityPayload, at occurredAt: Date = now, zone: String? = nil) -> [String] {
        let input = ActivityInput(
            clientEventID: "c1",
            occurredAt: occurredAt,
            timeZone: zone,
            source: .manual,
            payload: payload
        )
        do {
            _ = try ActivityRules.validate(input, defaultTimeZone: "Europe/Paris", limits: Self.limits, now: Self.now)
            return []
        } catch {
            return error.violations.map(\.field)
        }
    }

    @Test func whatCannotBeTrueIsRefusedNamingTheField() {
        #expect(self.fields(of: .steps(.init(steps: 100_001))) == ["steps"])
        #expect(self.fields(of: .steps(.init(steps: 100_000))) == [])
        #expect(
            self.fields(of: .workout(.init(type: .strength, durationSeconds: 24 * 3600 + 1))) == ["durationSeconds"]
        )
        // 5 km in 11:30 is faster than the world record (12:35); 13 minutes is merely elite.
        #expect(
            self.fields(of: .workout(.init(type: .running, durationSeconds: 690, distanceMeters: 5000))) == [
                "distanceMeters"
            ]
        )
        #expect(self.fields(of: .workout(.init(type: .running, durationSeconds: 780, distanceMeters: 5000))) == [])
        #expect(
            self.fields(of: .workout(.init(type: .running, durationSeconds: 9, distanceMeters: 100))) == [
                "distanceMeters"
            ]
        )
        #expect(
            self.fields(of: .workout(.init(type: .walking, durationSeconds: 600, distanceMeters: 3000))) == [
                "distanceMeters"
            ]
        )
        #expect(self.fields(of: .weight(kilograms: 501)) == ["weightKg"])
        #expect(self.fields(of: .appOpen, at: Self.now.addingTimeInterval(301)) == ["occurredAt"])
        #expect(self.fields(of: .appOpen, at: Self.now.addingTimeInterval(299)) == [])
        #expect(self.fields(of: .appOpen, zone: "Mars/Base") == ["timeZone"])
        #expect(self.fields(of: .workout(.init(type: .pushups, durationSeconds: 60, reps: 0))) == ["reps"])
        #expect(self.fields(of: .water(milliliters: 0)) == ["waterMl"])
    }

    @Test func aDayFarAboveTheRecentBestIsFlaggedNotRefused() {
        #expect(
            ActivityRules.flags(for: .steps(.init(steps: 50_001)), previous28DayMaximumSteps: 10_000) == ["steps_spike"]
        )
        #expect(ActivityRules.flags(for: .steps(.init(steps: 50_000)), previous28DayMaximumSteps: 10_000) == [])
        #expect(ActivityRules.flags(for: .steps(.init(steps: 50_001)), previous28DayMaximumSteps: 0) == [])
    }

    @Test func anExplicitDateMayNotBeAfterTheReading() throws {
        var input = ActivityInput(
            clientEventID: "c",
            occurredAt: Self.now,
            timeZone: "UTC",
            source: .healthkit,
            payload: .steps(.init(steps: 10))
        )
        input.date = LocalDate(iso: "2026-03-01")
        #expect(
            try ActivityRules.validate(input, defaultTimeZone: "UTC", limits: Self.limits, now: Self.now).localDate
                == input.date
        )
        input.date = LocalDate(iso: "2026-03-03")
        #expect(throws: ValidationError.self) {
            try ActivityRules.validate(input, defaultTimeZone: "UTC", limits: Self.limits, now: Self.now)
        }
    }

    @Test func caloriesFollowMETWeightAndDuration() {
        // Running 10 km/h (MET 11.0) for an hour at 70 kg: 770 kcal.
        let run = Workout(type: .running, durationSeconds: 3600, distanceMeters: 10_000)
        #expect(CalorieEstimate.kilocalories(run, weightKg: 70) == 770)
        // Twice the weight, twice the calories.
        #expect(CalorieEstimate.kilocalories(run, weightKg: 140) == 1540)
        // A brisk walk burns less than a run of the same time.
        #expect(
            CalorieEstimate.kilocalories(
                Workout(type: .walking, durationSeconds: 3600, distanceMeters: 5000),
                weightKg: 70
            ) < 770
        )
        // Age, height and sex correct the MET for the person's resting rate: an older person burns less here.
        let young = CalorieEstimate.kilocalories(run, weightKg: 70, age: 25, heightCm: 175, gender: .male)
        let old = CalorieEstimate.kilocalories(run, weightKg: 70, age: 70, heightCm: 175, gender: .male)
        #expect(young > old)
    }
}
