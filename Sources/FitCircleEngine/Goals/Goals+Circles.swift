public import FitCircleCore
public import FitCircleStore
import Foundation

/// Goals "derived from challenge targets" (spec 000, F1 and F2): a weight-loss circle's member gets weight
/// goals, a step circle's member with a step goal their share of it as the week's step total; both follow
/// the member in and out of circles.
extension Goals {
    /// Joining or leaving a circle that sets goals moves today's and this week's weight goals and this week's
    /// step total, where not yet met (spec 000 F2: "recalculate weekly targets when users join/leave").
    func followCircles(of user: User.ID, in tx: Transaction) async throws {
        try await self.replanToday(.weight, of: user, in: tx)
        try await self.replanToday(.steps, of: user, in: tx, spans: [.weekly])
    }

    /// A step circle member's weekly step total: their share of the circle's step goal (the largest, with
    /// several circles); nil outside such circles.
    func circleWeeklySteps(of user: User.ID, weekStart: LocalDate, in tx: Transaction) async throws -> Int? {
        var shares: [Int] = []
        for (circle, _) in try await tx.circles.list(of: user) where !circle.isArchived && circle.stepGoal != nil {
            let claimed = try await tx.circles.submissions(to: circle.id, of: user, from: circle.startDate).filter {
                $0.date < weekStart
            }.reduce(0) { $0 + $1.steps }
            if let share = circle.weeklyStepShare(claimedBefore: claimed, weekStart: weekStart) { shares.append(share) }
        }
        return shares.max()
    }

    /// The week's weight-loss target of a member of weight-loss circles (`WeightLossPace`), from where they
    /// stand as the week begins (their latest weight before it, else the circle's starting weight); with
    /// several circles, the largest, which keeps every one on pace. Nil outside such circles.
    func weeklyWeightLoss(of user: User.ID, weekStart: LocalDate, in tx: Transaction) async throws -> Double? {
        let circles = try await tx.circles.weightLossMemberships(of: user)
        guard !circles.isEmpty else { return nil }
        let before = try await tx.activities.latestWeight(of: user, before: weekStart)
        return circles.compactMap { circle, membership -> Double? in
            guard let target = membership.targetWeightKg, let starting = membership.startingWeightKg else { return nil }
            return WeightLossPace.weeklyKg(
                from: before ?? starting,
                to: target,
                weekStart: weekStart,
                circleEnd: circle.endDate
            )
        }.max()
    }

    /// Where a member stood before `date` for a weight goal: their latest weight before it, else the
    /// starting weight of a weight-loss circle they are in.
    func weightBefore(_ date: LocalDate, of user: User.ID, in tx: Transaction) async throws -> Double? {
        if let latest = try await tx.activities.latestWeight(of: user, before: date) { return latest }
        return try await tx.circles.weightLossMemberships(of: user).compactMap(\.membership.startingWeightKg).max()
    }
}
