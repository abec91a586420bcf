import FitCircleCore
import Foundation
import Testing

/// What an edit may change once a competition has begun, and who inherits a circle.
struct CircleRulesTests {
    static let now = Date(timeIntervalSince1970: 1_772_442_000)  // 2 March 2026

    static func circle(start: LocalDate) -> FitCircle {
        FitCircle(
            id: FitCircle.ID("c"),
            name: "Walkers",
            description: nil,
            metric: .steps,
            startDate: start,
            endDate: nil,
            timeZone: "Europe/Paris",
            privacy: .private,
            memberLimit: 10,
            ownerID: User.ID("ana"),
            joinCode: "K7QM2XPA",
            createdAt: Self.now
        )
    }

    @Test func aBegunCompetitionKeepsItsMetricAndNoLimitFallsBelowTheMembers() throws {
        let today = LocalDate(year: 2026, month: 3, day: 2)!
        let renamed = try CircleInput(name: "Night Walkers", metric: .checkinStreak).validated(
            defaultTimeZone: "Europe/Paris",
            now: Self.now
        )
        #expect(throws: DomainError.self) {
            try Self.circle(start: today).edited(with: renamed, startGiven: false, today: today, members: 2)
        }
        let notYet = try Self.circle(start: today.adding(days: 3)).edited(
            with: renamed,
            startGiven: false,
            today: today,
            members: 2
        )
        #expect(
            notYet.metric == .checkinStreak && notYet.startDate == today.adding(days: 3)
                && notYet.name == "Night Walkers"
        )
        let small = try CircleInput(name: "Walkers", metric: .steps, memberLimit: 2).validated(
            defaultTimeZone: "Europe/Paris",
            now: Self.now
        )
        #expect(throws: ValidationError.self) {
            try Self.circle(start: today).edited(with: small, startGiven: false, today: today, members: 3)
        }
        #expect(
            try Self.circle(start: today).edited(with: small, startGiven: false, today: today, members: 2).memberLimit
                == 2
        )
    }

    @Test func theLongestStandingAdminInheritsElseTheLongestStandingMember() {
        func member(_ id: String, _ role: CircleRole) -> CircleMembership {
            CircleMembership(circleID: FitCircle.ID("c"), userID: User.ID(id), role: role, joinedAt: Self.now)
        }
        #expect(
            CircleMembership.heir(among: [member("bo", .member), member("cy", .admin), member("di", .admin)])?.userID
                == User.ID("cy")
        )
        #expect(CircleMembership.heir(among: [member("bo", .member), member("cy", .member)])?.userID == User.ID("bo"))
        #expect(CircleMembership.heir(among: []) == nil)
    }

    /// Spec 000 F2: a member's weekly steps from the circle's goal — what is left over the weeks remaining.
    @Test func f2_aStepGoalIsSharedOverTheWeeksRemaining() throws {
        let march2 = LocalDate(year: 2026, month: 3, day: 2)!
        var circle = Self.circle(start: march2)
        circle.endDate = march2.adding(days: 27)
        circle.stepGoal = 280_000
        #expect(circle.weeklyStepShare(claimedBefore: 0, weekStart: march2) == 70_000)
        #expect(circle.weeklyStepShare(claimedBefore: 60_000, weekStart: march2.adding(days: 7)) == 73_400)
        #expect(circle.weeklyStepShare(claimedBefore: 279_950, weekStart: march2.adding(days: 21)) == 100)
        // met: the baseline again
        #expect(circle.weeklyStepShare(claimedBefore: 280_000, weekStart: march2.adding(days: 21)) == nil)
        #expect(circle.weeklyStepShare(claimedBefore: 0, weekStart: march2.adding(days: 28)) == nil)  // after the end
        circle.endDate = nil
        #expect(circle.weeklyStepShare(claimedBefore: 0, weekStart: march2) == nil)

        let input = CircleInput(
            name: "Walkers",
            metric: .weightLossPct,
            endDate: march2.adding(days: 27),
            stepGoal: 500
        )
        let refused = #expect(throws: ValidationError.self) {
            try input.validated(defaultTimeZone: "Europe/Paris", now: Self.now)
        }
        #expect(refused?.violations.map(\.field) == ["stepGoal", "stepGoal"])
        let open = CircleInput(name: "Walkers", metric: .steps, stepGoal: 100_000)
        #expect(throws: ValidationError.self) { try open.validated(defaultTimeZone: "Europe/Paris", now: Self.now) }
    }
}
