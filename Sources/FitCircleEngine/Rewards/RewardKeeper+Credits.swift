import FitCircleCore
import FitCircleStore
import Foundation

/// How `RewardKeeper` credits: a workout's series, the week's goal, the badges unlocked, each a line of the
/// user's books (`Books`: read by `books`, saved by `write`).
extension RewardKeeper {
    func creditSeries(
        _ workout: Workout,
        of event: ActivityEvent,
        training: TrainingSettings,
        streak: Streak,
        now: Date,
        into books: inout Books
    ) -> Points.SeriesAward? {
        guard let rule = self.policy.series else { return nil }
        let day = books.days[event.localDate] ?? PointsDay(date: event.localDate)
        var award = Points.series(
            number: workout.series ?? 1,
            reps: workout.reps ?? 0,
            countedBefore: day.pushupsCounted,
            cap: self.policy.pushupCap?.cap(dailyGoal: training.dailyGoal, level: books.stats.level),
            streakMultiplier: self.policy.streakMultiplier.value(streak: streak.count),
            policy: rule
        )
        // A late series still counts toward the day's push-ups; it earns nothing.
        let late = self.policy.isLate(event)
        if late { award.points = 0 }
        if award.counted > 0 { books.stats.counters[.series, default: 0] += 1 }
        books.stats.counters[.pushups, default: 0] += award.counted
        self.credit(
            line(
                event.localDate,
                award.points,
                .series,
                Self.key("series", of: event),
                event: event.id,
                now: now,
                multiplier: award.streakMultiplier,
                counted: award.counted,
                excess: award.excess,
                detail: .init(
                    series: award,
                    level: books.stats.level,
                    dailyGoal: training.dailyGoal,
                    streak: streak.count,
                    late: late ? true : nil
                )
            ),
            into: &books,
            now: now
        )
        return award
    }

    /// The weekly bonus of the week holding `date` and the weekly challenge of its own week holding it, once each.
    func creditWeek(holding date: LocalDate, training: TrainingSettings, now: Date, into books: inout Books) {
        let start = date.startOfWeek(startingOn: self.profile.week.startsOn)
        let counted = (0..<7).reduce(0) { $0 + (books.days[start.adding(days: $1)]?.pushupsCounted ?? 0) }
        let lastDay = start.adding(days: 6)
        if let bonus = self.policy.weeklyBonus, counted >= training.weeklyGoal,
            !books.credited.contains("weekly_bonus:\(start.iso)")
        {
            self.credit(
                line(
                    lastDay,
                    bonus,
                    .weeklyBonus,
                    "weekly_bonus:\(start.iso)",
                    now: now,
                    detail: .init(
                        level: books.stats.level,
                        dailyGoal: training.dailyGoal,
                        weekStart: start,
                        target: training.weeklyGoal
                    )
                ),
                into: &books,
                now: now
            )
            books.events.append(
                self.event(.weeklyBonus, on: lastDay, ["weekStart": start.iso, "points": "\(bonus)"], now: now)
            )
        }
        guard let challenge = self.policy.weeklyChallenge else { return }
        let challengeStart = challenge.start(holding: date, profileWeekStartsOn: self.profile.week.startsOn)
        let challengeCounted = (0..<7).reduce(0) {
            $0 + (books.days[challengeStart.adding(days: $1)]?.pushupsCounted ?? 0)
        }
        if challengeCounted >= training.dailyGoal * challenge.goalDays,
            !books.credited.contains("weekly_challenge:\(challengeStart.iso)")
        {
            let badge = UnlockedBadge(
                badgeID: "weekly-challenge-\(challengeStart.iso)",
                name: "Weekly Challenge \(challengeStart.iso)",
                date: date,
                unlockedAt: now
            )
            books.badges.append(badge)
            books.unlocked.insert(badge.badgeID)
            books.stats.counters[.weeklyChallenges, default: 0] += 1
            self.credit(
                line(
                    date,
                    challenge.points,
                    .weeklyChallenge,
                    "weekly_challenge:\(challengeStart.iso)",
                    now: now,
                    detail: .init(
                        level: books.stats.level,
                        dailyGoal: training.dailyGoal,
                        weekStart: challengeStart,
                        target: training.dailyGoal * challenge.goalDays,
                        badgeID: badge.badgeID
                    )
                ),
                into: &books,
                now: now
            )
            books.events.append(
                self.event(
                    .weeklyChallengeCompleted,
                    on: date,
                    ["weekStart": challengeStart.iso, "badge": badge.name, "points": "\(challenge.points)"],
                    now: now
                )
            )
        }
    }

    /// Unlocks every catalog badge whose requirement now holds; a badge's XP may unlock another.
    func unlockBadges(on today: LocalDate, now: Date, into books: inout Books) {
        var unlockedOne = true
        while unlockedOne {
            unlockedOne = false
            for badge in self.policy.badges
            where !books.unlocked.contains(badge.id) && badge.isMet(by: books.stats.allCounters) {
                books.unlocked.insert(badge.id)
                books.badges.append(UnlockedBadge(badgeID: badge.id, name: badge.name, date: today, unlockedAt: now))
                books.events.append(
                    self.event(
                        .badgeUnlocked,
                        on: today,
                        ["badge": badge.id, "name": badge.name, "points": "\(badge.xp)"],
                        now: now
                    )
                )
                self.credit(
                    line(
                        today,
                        badge.xp,
                        .badge,
                        "badge:\(badge.id)",
                        now: now,
                        detail: .init(level: books.stats.level, badgeID: badge.id)
                    ),
                    into: &books,
                    now: now
                )
                unlockedOne = true
            }
        }
    }

    /// Adds a line to the books: the day, the total and the level follow; a new level is an event.
    func credit(_ line: PointsLine, into books: inout Books, now: Date) {
        books.lines.append(line)
        books.credited.insert(line.sourceKey)
        books.days[line.date] = (books.days[line.date] ?? PointsDay(date: line.date)).adding(line)
        books.stats.totalPoints += line.amount
        let level = self.policy.levels.level(for: books.stats.totalPoints)
        if level > books.stats.level {
            books.events.append(self.event(.levelReached, on: line.date, ["level": "\(level)"], now: now))
        }
        books.stats.level = level
    }

    /// The user's stats, badges, the ledger's days from `from` to `to` and which of `keys` were credited.
    func books(of user: User.ID, from: LocalDate, to: LocalDate, keys: Set<String>, in tx: Transaction)
        async throws -> Books
    {
        Books(
            stats: try await tx.points.stats(of: user) ?? RewardStats(),
            days: Dictionary(
                uniqueKeysWithValues: PointsDay.summarize(try await tx.points.lines(of: user, from: from, to: to)).map {
                    ($0.date, $0)
                }
            ),
            credited: try await tx.points.creditedSourceKeys(of: user, among: keys),
            unlocked: Set(try await tx.points.unlockedBadges(of: user).map(\.badgeID))
        )
    }

    func write(_ books: Books, of user: User.ID, in tx: Transaction, now: Date) async throws {
        try await tx.points.append(books.lines, of: user)
        try await tx.points.insert(books.badges, of: user)
        try await tx.points.insert(books.events, of: user)
        try await self.analytics.record(
            books.events.compactMap { event -> AnalyticsEvent? in
                switch event.kind {
                case .levelReached:
                    .server(
                        .levelUp,
                        key: event.data["level"] ?? event.id,
                        of: user,
                        on: event.date,
                        at: now,
                        properties: [
                            "level": .integer(Int(event.data["level"] ?? "") ?? books.stats.level),
                            "totalPoints": .integer(books.stats.totalPoints),
                        ]
                    )
                case .badgeUnlocked:
                    .server(
                        .badgeUnlocked,
                        key: event.data["badge"] ?? event.id,
                        of: user,
                        on: event.date,
                        at: now,
                        properties: [
                            "badge": .string(event.data["badge"] ?? ""), "name": .string(event.data["name"] ?? ""),
                        ]
                    )
                case .weeklyBonus, .weeklyChallengeCompleted: nil
                }
            },
            in: tx
        )
        try await tx.enqueue(
            try books.events.compactMap { event in
                try Self.achievement(event).flatMap {
                    try Notifications.raising(
                        $0,
                        for: user,
                        catalog: self.profile.notifications,
                        ids: self.ids,
                        at: now
                    )
                }
            }
                + books.events.filter { $0.kind == .badgeUnlocked }.map { event in
                    // Members' circles see their badges in the feed.
                    let badge = event.data["badge"] ?? event.id
                    return try Circles.posting(
                        Circles.News(
                            user: user,
                            kind: .badge,
                            subject: event.data["name"] ?? badge,
                            key: "badge:\(badge)"
                        ),
                        ids: self.ids,
                        at: now
                    )
                },
            at: now
        )
        try await tx.points.save(books.stats, of: user, at: now)
    }

    func line(
        _ date: LocalDate,
        _ amount: Int,
        _ reason: PointsLine.Reason,
        _ key: String,
        event: ActivityEvent.ID? = nil,
        now: Date,
        multiplier: Double? = nil,
        counted: Int = 0,
        excess: Int = 0,
        detail: PointsLine.Detail
    ) -> PointsLine {
        PointsLine(
            id: self.ids.make(),
            date: date,
            amount: amount,
            reason: reason,
            sourceKey: key,
            sourceEventID: event,
            multiplier: multiplier,
            counted: counted,
            excess: excess,
            detail: detail,
            createdAt: now
        )
    }
}
