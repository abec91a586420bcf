public import FitCircleCore
public import FitCircleStore
import Foundation

/// What a claim tells others: members of a big day, of a goal milestone, of ranks that changed on the board.
extension Circles {
    /// "Alex just submitted 10K steps—can you beat that?" to every other member (`social_engagement` with
    /// `kind: submission`, within its caps and the day's budget), once per member, circle and day; named as
    /// the board shows the mover to each.
    func tellMatesOfABigDay(
        _ claim: CircleSubmission,
        in circle: FitCircle,
        mover: User,
        tx: Transaction,
        now: Date
    ) async throws {
        let mates = try await tx.circles.members(of: circle.id).map(\.membership.userID).filter { $0 != mover.id }
        guard !mates.isEmpty else { return }
        let naming = try await Naming.of(mover.id, for: [mover.profile.visibility.boardName], in: tx)
        let jobs = try mates.compactMap { mate -> JobRecord? in
            let name = Self.boardName(of: mover, seenBy: mate, naming: naming)
            let candidate = NotificationCandidate(
                type: .socialEngagement,
                dedupeKey: "social_engagement:submission:\(circle.id):\(mover.id):\(claim.date.iso)",
                data: [
                    "kind": "submission", "name": name ?? ProfileAccess.anonymousMember,
                    "steps": NotificationCopy.count(claim.steps),
                    "circle": circle.name, "circleId": circle.id.rawValue,
                ],
                actor: name == nil ? nil : mover.id
            )
            return try Notifications.raising(
                candidate,
                for: mate,
                catalog: self.rules.base.notifications,
                ids: self.ids,
                at: now
            )
        }
        try await tx.enqueue(jobs, at: now)
    }

    /// A claim that reaches 25, 50, 75 or 100 % of the member's goal in the circle — their weight-loss
    /// target, or a step circle's step goal over the competition (`challenge_milestone`;
    /// `challenge_milestone_email` at 50 and 100 %), each once per member and circle.
    func tellGoalMilestone(
        of user: User.ID,
        percent: Int,
        goal: String,
        in circle: FitCircle,
        tx: Transaction,
        now: Date
    ) async throws {
        guard let threshold = GoalMilestone.reached(percent) else { return }
        let data = [
            "milestone": GoalMilestone.name(threshold), "percent": "\(threshold)", "goal": goal, "circle": circle.name,
            "circleId": circle.id.rawValue,
        ]
        let types: [RaisedType] =
            GoalMilestone.emailed.contains(threshold)
            ? [.challengeMilestone, .challengeMilestoneEmail] : [.challengeMilestone]
        let jobs = try types.compactMap { type in
            try Notifications.raising(
                NotificationCandidate(type: type, dedupeKey: "\(type.rawValue):\(circle.id):\(threshold)", data: data),
                for: user,
                catalog: self.rules.base.notifications,
                ids: self.ids,
                at: now
            )
        }
        try await tx.enqueue(jobs, at: now)
    }

    /// The mover's name as `member`'s board shows it, or nil for "A member" (`naming`: the mover's friends,
    /// loaded when their board-name audience is friends).
    static func boardName(of mover: User, seenBy member: User.ID, naming: Naming) -> String? {
        let relationship = ProfileAccess.Relationship(
            isSelf: false,
            isFriend: naming.friends.contains(member),
            sharesCircle: true
        )
        return ProfileAccess.boardName(
            mover.profile.displayName,
            audience: mover.profile.visibility.boardName,
            relationship
        )
    }

    func tellRankChanges(
        _ weekly: BoardKeeper.Restated,
        after: Int,
        in circle: FitCircle,
        mover: User,
        tx: Transaction,
        now: Date
    ) async throws {
        // One per change (the key is the notifications' own: it does not name the mover, who may be "A member").
        let stamp = "\(circle.id):\(weekly.change.board.start.iso):\(self.ids.uuidV7().lowercased())"
        var candidates: [(User.ID, NotificationCandidate)] = []
        // Each passed member reads the mover's name as the board shows it to them: "A member", with no id,
        // to whom the mover's board-name audience leaves out.
        let naming = try await Naming.of(mover.id, for: [mover.profile.visibility.boardName], in: tx)
        for (offset, passed) in weekly.passed.enumerated() {
            let name = Self.boardName(of: mover, seenBy: passed, naming: naming)
            candidates.append(
                (
                    passed,
                    NotificationCandidate(
                        type: .leaderboardPassed,
                        dedupeKey: "leaderboard_passed:\(stamp)",
                        data: [
                            "name": name ?? ProfileAccess.anonymousMember, "circle": circle.name,
                            "circleId": circle.id.rawValue, "rank": "\(after + offset + 1)",
                        ],
                        actor: name == nil ? nil : mover.id
                    )
                )
            )
        }
        if let before = weekly.before, before - after >= 3 {
            candidates.append(
                (
                    mover.id,
                    NotificationCandidate(
                        type: .leaderboardChange,
                        dedupeKey: "leaderboard_change:\(stamp)",
                        data: [
                            "rank": "\(after)", "next": "\(max(1, after - 1))", "circle": circle.name,
                            "circleId": circle.id.rawValue,
                        ]
                    )
                )
            )
        }
        let jobs = try candidates.compactMap { user, candidate in
            try Notifications.raising(
                candidate,
                for: user,
                catalog: self.rules.base.notifications,
                ids: self.ids,
                at: now
            )
        }
        try await tx.enqueue(jobs, at: now)
    }
}
