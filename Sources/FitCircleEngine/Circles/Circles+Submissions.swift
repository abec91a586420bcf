public import FitCircleCore
public import FitCircleStore
import Foundation

/// Data submission (spec 000, Feature 5): synced data counts in a circle only once the member claims the
/// day, until 00:30 the next day where they are. Claiming again replays the same claim, or updates it when
/// the ledger says more (a later sync), never counting the day twice.
extension Circles {
    public struct SubmissionOutcome: Equatable, Sendable {
        public var submission: CircleSubmission
        /// Nothing changed: the same day was claimed with the same data before.
        public var replayed: Bool
        public var created: Bool
    }

    /// Claims the day's data (`date`, else today where the user is) for one circle, or for every circle the
    /// user competes in that day when `circle` is nil.
    public func submit(to circle: FitCircle.ID?, date: LocalDate?, by user: User.ID) async throws -> [SubmissionOutcome] {
        let now = self.clock.now()
        return try await self.store.transaction { tx in
            guard let account = try await tx.lockedUser(user) else { throw DomainError.notFound(resource: "user", id: user.rawValue) }
            let day = try SubmissionWindow.day(date, now: now, in: TimeZone(identifier: account.profile.timeZone) ?? .gmt)
            let circles: [FitCircle]
            if let circle {
                guard let found = try await tx.circle(circle), try await tx.membership(of: user, in: circle) != nil else {
                    throw DomainError.notFound(resource: "circle", id: circle.rawValue)
                }
                guard !found.isArchived else { throw DomainError.conflict(reason: "The circle is archived.") }
                guard found.runs(on: day) else {
                    throw DomainError.conflict(reason: "The competition runs from \(found.startDate.iso)\(found.endDate.map { " to \($0.iso)" } ?? " on"): \(day.iso) does not count.")
                }
                circles = [found]
            } else {
                circles = try await tx.circles(of: user).map(\.circle).filter { !$0.isArchived && $0.runs(on: day) }
            }
            let tracked = try await tx.days(of: user, from: day, to: day).first
            let (steps, weight) = (tracked?.steps ?? 0, tracked?.weightKg)
            var outcomes: [SubmissionOutcome] = []
            for circle in circles {
                if var claim = try await tx.submission(to: circle.id, of: user, on: day) {
                    guard claim.differs(steps: steps, weightKg: weight) else {
                        outcomes.append(SubmissionOutcome(submission: claim, replayed: true, created: false))
                        continue
                    }
                    (claim.steps, claim.weightKg, claim.updatedAt) = (steps, weight, now)
                    try await tx.save(claim)
                    outcomes.append(SubmissionOutcome(submission: claim, replayed: false, created: false))
                } else {
                    let claim = CircleSubmission(circleID: circle.id, userID: user, date: day, steps: steps, weightKg: weight, submittedAt: now, updatedAt: now)
                    try await tx.save(claim)
                    outcomes.append(SubmissionOutcome(submission: claim, replayed: false, created: true))
                }
            }
            return outcomes
        }
    }

    /// A member and their claim of the circle's day, if any.
    public struct SubmissionStatus: Equatable, Sendable {
        public var member: CircleMemberRow
        public var submission: CircleSubmission?
        /// "2 hours ago"
        public var ago: String?
    }

    /// Who has and has not claimed the circle's today (its home zone's date), in the order they joined.
    public func submissionsToday(of circle: FitCircle.ID, for user: User.ID) async throws -> (date: LocalDate, members: [SubmissionStatus]) {
        let now = self.clock.now()
        return try await self.store.read { tx in
            let (found, _) = try await self.visible(circle, to: user, in: tx)
            let today = LocalDate(now, in: TimeZone(identifier: found.timeZone) ?? .gmt)
            let claims = Dictionary(try await tx.submissions(to: circle, on: today).map { ($0.userID, $0) }, uniquingKeysWith: { first, _ in first })
            let members = try await tx.members(of: circle).map { member in
                let claim = claims[member.membership.userID]
                return SubmissionStatus(member: member, submission: claim, ago: claim.map { RelativeTime.ago($0.submittedAt, now: now) })
            }
            return (today, members)
        }
    }

    /// The user's circles still waiting for today's claim (today where the user is).
    public func pendingSubmissions(of user: User.ID) async throws -> (date: LocalDate, circles: [FitCircle]) {
        let now = self.clock.now()
        return try await self.store.read { tx in
            guard let account = try await tx.user(user) else { throw DomainError.notFound(resource: "user", id: user.rawValue) }
            let today = account.localDate(at: now)
            let submitted = try await tx.circlesSubmitted(by: user, on: today)
            let pending = try await tx.circles(of: user).map(\.circle).filter { !$0.isArchived && $0.runs(on: today) && !submitted.contains($0.id) }
            return (today, pending)
        }
    }
}
