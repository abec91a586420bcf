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
    /// user competes in that day when `circle` is nil. Each claim that changes something restates the
    /// member's boards, records their weekly rank after it, adds a feed item and tells the circle's streams.
    public func submit(to circle: FitCircle.ID?, date: LocalDate?, by user: User.ID) async throws -> [SubmissionOutcome]
    {
        let now = self.clock.now()
        let (outcomes, events) = try await self.store.transaction { tx in
            guard let account = try await tx.users.locked(user) else {
                throw DomainError.notFound(resource: "user", id: user.rawValue)
            }
            let day = try SubmissionWindow.day(
                date,
                now: now,
                in: TimeZone(identifier: account.profile.timeZone) ?? .gmt
            )
            let circles: [FitCircle]
            if let circle {
                let found = try await self.allowed(.participate, circle, by: user, in: tx).circle
                guard !found.isArchived else {
                    throw DomainError.refused(Refusal(.circleArchived, "The circle is archived."))
                }
                guard found.runs(on: day) else {
                    throw DomainError.refused(
                        Refusal(
                            .periodClosed,
                            "The competition runs from \(found.startDate.iso)\(found.endDate.map { " to \($0.iso)" } ?? " on"): \(day.iso) does not count."
                        )
                    )
                }
                circles = [found]
            } else {
                circles = try await tx.circles.list(of: user).map(\.circle).filter {
                    !$0.isArchived && $0.runs(on: day)
                }
            }
            let tracked = try await tx.activities.days(of: user, from: day, to: day).first
            let (steps, weight) = (tracked?.steps ?? 0, tracked?.weightKg)
            let streak = try await StreakKeeper(rules: self.rules, analytics: self.analytics).refresh(
                account,
                in: tx,
                now: now
            ).standing.current
            var outcomes: [SubmissionOutcome] = []
            var events: [BoardEvent] = []
            for circle in circles {
                let existing = try await tx.circles.submission(to: circle.id, of: user, on: day)
                var claim: CircleSubmission
                if let existing {
                    guard
                        let changed = existing.reclaimed(
                            steps: steps,
                            weightKg: weight,
                            checkinStreak: streak,
                            metric: circle.metric,
                            at: now
                        )
                    else {
                        outcomes.append(SubmissionOutcome(submission: existing, replayed: true, created: false))
                        continue
                    }
                    claim = changed
                } else {
                    claim = CircleSubmission(
                        circleID: circle.id,
                        userID: user,
                        date: day,
                        steps: steps,
                        weightKg: weight,
                        checkinStreak: streak,
                        submittedAt: now,
                        updatedAt: now
                    )
                }
                try await tx.circles.save(claim)
                let (ranked, event) = try await self.ranked(
                    claim,
                    previous: existing,
                    in: circle,
                    by: account,
                    tx: tx,
                    now: now
                )
                try await tx.circles.save(ranked)
                outcomes.append(SubmissionOutcome(submission: ranked, replayed: false, created: existing == nil))
                events.append(event)
            }
            if outcomes.contains(where: \.created) {
                try await RewardKeeper(profile: self.rules.base, ids: self.ids, analytics: self.analytics)
                    .creditSubmission(of: day, of: account, in: tx, now: now)
                try await ChallengeScoring(events: self.events, catalog: self.rules.base.notifications, ids: self.ids)
                    .restate([user], in: tx, now: now)
                // The day's first claim is its data submission (spec 000's submission rate and share before 18:00).
                let zone = TimeZone(identifier: account.profile.timeZone) ?? .gmt
                var submitted = AnalyticsEvent.server(
                    .dataSubmitted,
                    key: day.iso,
                    of: account,
                    at: now,
                    properties: [
                        "localHour": .integer(LocalTime(now, in: zone).hour),
                        "late": .boolean(day < account.localDate(at: now)),
                    ]
                )
                submitted.localDate = day
                try await self.analytics.record([submitted], in: tx)
            }
            try await self.events.send(events, in: tx)
            return (outcomes, events)
        }
        self.events.publish(events)
        return outcomes
    }

    /// Restates the member's boards after a claim: the claim with its weekly rank, and what the circle
    /// hears of it (rank changes, a feed item when the circle's value changed). Members it passed and a
    /// climb of three places or more are told (`leaderboard_passed`, `leaderboard_change`).
    private func ranked(
        _ claim: CircleSubmission,
        previous: CircleSubmission?,
        in circle: FitCircle,
        by account: User,
        tx: Transaction,
        now: Date
    ) async throws -> (CircleSubmission, BoardEvent) {
        var claim = claim
        let restated = try await self.keeper.restate(account.id, in: circle, on: claim.date, in: tx, now: now)
        let weekly = restated.first { $0.change.board.period == .weekly }
        if let weekly {
            claim.rankAfter = weekly.after
            claim.rankChange = weekly.before.flatMap { before in weekly.after.map { before - $0 } }
            if let rank = weekly.after, weekly.before != rank {
                var properties: [String: EventValue] = [
                    "circleId": .string(circle.id.rawValue), "rank": .integer(rank),
                ]
                if let before = weekly.before { properties["previousRank"] = .integer(before) }
                try await self.analytics.record(
                    .rankChanged,
                    key: "\(circle.id.rawValue):\(now.timeIntervalSince1970)",
                    of: account,
                    at: now,
                    properties: properties,
                    in: tx
                )
            }
        } else if let board = self.keeper.boards(of: circle, holding: claim.date).first(where: { $0.period == .weekly }
        ),
            let key = try await tx.boards.score(on: board, of: account.id)
        {
            claim.rankAfter = try await self.keeper.rank(of: key, on: board, in: tx)
            claim.rankChange = 0
        }
        var feed: [FeedItem] = []
        let valueChanged = previous.map { $0.value(for: circle.metric) != claim.value(for: circle.metric) } ?? true
        // The feed tells the weekly value, except on weight-loss circles: the share of the goal (the daily
        // board's), which "weighed in at 40% of their goal" means. A weight whose share did not move tells
        // nothing: the claimed kilograms themselves never reach the feed.
        let told = circle.metric == .weightLossPct ? restated.first { $0.change.board.period == .daily } : weekly
        let figure =
            told?.change.key?.value ?? (circle.metric == .weightLossPct ? nil : claim.value(for: circle.metric))
        if valueChanged, let value = figure {
            let shown = circle.metric == .steps ? Double(claim.steps) : value
            let item = FeedItem(
                id: self.ids.make(),
                circleID: circle.id,
                kind: .submission,
                actorID: account.id,
                text: FeedText.submission(
                    name: account.profile.displayName,
                    metric: circle.metric,
                    value: shown,
                    rank: claim.rankAfter,
                    previousRank: weekly?.before
                ),
                data: [
                    "name": account.profile.displayName, "date": claim.date.iso, "value": FeedText.figure(shown),
                    "rank": claim.rankAfter.map(String.init) ?? "",
                ],
                createdAt: now
            )
            if try await tx.feed.insert(
                item,
                dedupeKey: "submission:\(account.id):\(claim.date.iso):\(FeedText.figure(shown))"
            ) {
                feed.append(item)
            }
        }
        if circle.metric == .steps, claim.steps >= Self.bigDaySteps, (previous?.steps ?? 0) < Self.bigDaySteps {
            try await self.tellMatesOfABigDay(claim, in: circle, mover: account, tx: tx, now: now)
        }
        if circle.metric == .weightLossPct, let weight = claim.weightKg,
            let membership = try await tx.circles.membership(of: account.id, in: circle.id),
            let start = membership.startingWeightKg, let target = membership.targetWeightKg
        {
            let percent = GoalMilestone.percent(startingKg: start, targetKg: target, currentKg: weight)
            try await self.tellGoalMilestone(
                of: account.id,
                percent: percent,
                goal: "weight_loss",
                in: circle,
                tx: tx,
                now: now
            )
        }
        if circle.metric == .steps, let goal = circle.stepGoal {
            let claimed = try await tx.circles.submissions(to: circle.id, of: account.id, from: circle.startDate).filter
            {
                circle.runs(on: $0.date)
            }.reduce(0) { $0 + $1.steps }
            try await self.tellGoalMilestone(
                of: account.id,
                percent: GoalMilestone.percent(steps: claimed, of: goal),
                goal: "steps",
                in: circle,
                tx: tx,
                now: now
            )
        }
        if let weekly, let after = weekly.after {
            try await self.tellRankChanges(weekly, after: after, in: circle, mover: account, tx: tx, now: now)
        }
        let ranks = restated.map { restated in
            RankUpdate(
                period: restated.change.board.period,
                periodStart: restated.change.board.start,
                user: account.id,
                value: restated.change.key?.value,
                rank: restated.after,
                previousRank: restated.before
            )
        }
        return (claim, self.events.event(circle.id, changes: restated.map(\.change), ranks: ranks, feed: feed))
    }

    /// A claim of at least this many steps is news for the circle's members (spec 000 Flow 2).
    static let bigDaySteps = 10_000

    /// A member and their claim of the circle's day, if any.
    public struct SubmissionStatus: Equatable, Sendable {
        public var member: CircleMemberRow
        public var submission: CircleSubmission?
        /// "2 hours ago"
        public var ago: String?
        /// The claim's steps are a result: shown only where the member's name would be on the board.
        public var showsSteps: Bool
    }

    /// Who has and has not claimed the circle's today (its home zone's date), in the order they joined, a page
    /// of members at a time (as `members(of:for:after:limit:)`: those who blocked the caller are left out,
    /// so a page may be short and still not the last).
    public func submissionsToday(of circle: FitCircle.ID, for user: User.ID, after last: User.ID?, limit: Int)
        async throws -> (date: LocalDate, members: [SubmissionStatus], next: User.ID?)
    {
        try PageLimit.check(limit, within: Self.memberPageSizes)
        let now = self.clock.now()
        return try await self.store.read { tx in
            let found = try await self.allowed(.read, circle, by: user, in: tx).circle
            let today = found.today(at: now)
            let page = PageOfRows(
                rows: try await tx.circles.members(of: circle, after: last, limit: limit + 1),
                limit: limit
            )
            let naming = try await Naming.of(user, for: page.items.map(\.boardNameAudience), in: tx)
            let claims = Dictionary(
                try await tx.circles.submissions(to: circle, on: today, of: page.items.map(\.membership.userID))
                    .map { ($0.userID, $0) },
                uniquingKeysWith: { first, _ in first }
            )
            let members = page.items.filter { !naming.blockers.contains($0.membership.userID) }.map { member in
                let claim = claims[member.membership.userID]
                return SubmissionStatus(
                    member: member,
                    submission: claim,
                    ago: claim.map { RelativeTime.ago($0.submittedAt, now: now) },
                    showsSteps: naming.name(
                        of: member.membership.userID,
                        member.displayName,
                        audience: member.boardNameAudience
                    ) != nil
                )
            }
            return (today, members, page.next(\.membership.userID))
        }
    }

    /// The user's circles still waiting for today's claim (today where the user is).
    public func pendingSubmissions(of user: User.ID) async throws -> (date: LocalDate, circles: [FitCircle]) {
        let now = self.clock.now()
        return try await self.store.read { tx in
            guard let account = try await tx.users.find(user) else {
                throw DomainError.notFound(resource: "user", id: user.rawValue)
            }
            let today = account.localDate(at: now)
            let submitted = try await tx.circles.circlesSubmitted(by: user, on: today)
            let pending = try await tx.circles.list(of: user).map(\.circle).filter {
                !$0.isArchived && $0.runs(on: today) && !submitted.contains($0.id)
            }
            return (today, pending)
        }
    }
}
