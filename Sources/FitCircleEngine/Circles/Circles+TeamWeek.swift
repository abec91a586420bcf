public import FitCircleCore
public import FitCircleStore
import Foundation

/// A circle's week as a team (spec 000, Feature 2: "the team's aggregated weekly performance"): the steps
/// its members claimed each day of the week, who contributed most, and the caller's part.
extension Circles {
    public struct TeamWeek: Sendable {
        public var circle: FitCircle
        /// The week holding today in the circle's zone (from the profile's first weekday).
        public var weekStart: LocalDate
        /// Each day of the week with the steps claimed for it, all members together.
        public var days: [(date: LocalDate, steps: Int)]
        public var totalSteps: Int
        public var members: Int
        /// Members who claimed at least one day of the week.
        public var contributors: Int
        /// The most steps first (ties: the earlier member), at most three.
        public var top: [(member: CircleMemberRow, steps: Int)]
        public var yourSteps: Int
    }

    /// This week of each circle the user is in (or of `circle` alone).
    public func teamWeeks(of user: User.ID, circle only: FitCircle.ID?) async throws -> [TeamWeek] {
        let now = self.clock.now()
        return try await self.store.read { tx in
            var circles: [FitCircle]
            if let only {
                circles = [try await self.allowed(.participate, only, by: user, in: tx).circle]
            } else {
                circles = try await tx.circles.list(of: user).map(\.circle)
            }
            var weeks: [TeamWeek] = []
            for circle in circles {
                let today = circle.today(at: now)
                let start = today.startOfWeek(startingOn: self.rules.base.week.startsOn)
                let claims = try await tx.circles.submissions(to: circle.id, from: start, to: start.adding(days: 6))
                let members = try await tx.circles.members(of: circle.id)
                var perMember: [User.ID: Int] = [:]
                for claim in claims { perMember[claim.userID, default: 0] += claim.steps }
                let days = (0..<7).map { offset in
                    let date = start.adding(days: offset)
                    return (date, claims.filter { $0.date == date }.reduce(0) { $0 + $1.steps })
                }
                // `members` is in joining order, so a stable sort keeps the earlier member first on a tie.
                let top = members.compactMap { member in perMember[member.membership.userID].map { (member, $0) } }
                    .enumerated().sorted { ($0.element.1, -$0.offset) > ($1.element.1, -$1.offset) }.map(\.element)
                weeks.append(
                    TeamWeek(
                        circle: circle,
                        weekStart: start,
                        days: days,
                        totalSteps: claims.reduce(0) { $0 + $1.steps },
                        members: members.count,
                        contributors: Set(claims.map(\.userID)).count,
                        top: Array(top.prefix(3)),
                        yourSteps: perMember[user] ?? 0
                    )
                )
            }
            return weeks
        }
    }
}
