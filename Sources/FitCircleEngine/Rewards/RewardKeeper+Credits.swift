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
        try await self.books([user: BooksRange(days: from...to, keys: keys)], in: tx)[user] ?? Books.empty
    }

    /// Which days of a person's ledger (none: what is credited needs no day's sums, as stakes and counters),
    /// and which source keys, their books are read with.
    struct BooksRange {
        var days: ClosedRange<LocalDate>?
        var keys: Set<String>
    }

    /// Several people's books, read together: four statements however many people (settlement, payouts).
    func books(_ wanted: [User.ID: BooksRange], in tx: Transaction) async throws -> [User.ID: Books] {
        guard !wanted.isEmpty else { return [:] }
        let users = Array(wanted.keys)
        let stats = try await tx.points.stats(of: users)
        let ranges = wanted.compactMap { $0.value.days }
        var lines: [User.ID: [PointsLine]] = [:]
        if let from = ranges.map(\.lowerBound).min(), let to = ranges.map(\.upperBound).max() {
            lines = try await tx.points.lines(of: wanted.filter { $0.value.days != nil }.keys, from: from, to: to)
        }
        let credited = try await tx.points.creditedSourceKeys(among: wanted.mapValues(\.keys))
        let unlocked = try await tx.points.unlockedBadges(of: users)
        return wanted.reduce(into: [:]) { books, entry in
            let (user, range) = entry
            let days = PointsDay.summarize((lines[user] ?? []).filter { range.days?.contains($0.date) == true })
            books[user] = Books(
                stats: stats[user] ?? RewardStats(),
                days: Dictionary(uniqueKeysWithValues: days.map { ($0.date, $0) }),
                credited: credited[user] ?? [],
                unlocked: Set((unlocked[user] ?? []).map(\.badgeID))
            )
        }
    }

    func write(_ books: Books, of user: User.ID, in tx: Transaction, now: Date) async throws {
        try await self.write([user: books], in: tx, now: now)
    }

    /// Writes several people's books together: their lines, badges, events, the analytics and notifications
    /// these raise, and their stats, each kind in as few statements as the rows allow.
    func write(_ books: [User.ID: Books], in tx: Transaction, now: Date) async throws {
        let people = books.sorted { $0.key < $1.key }
        try await tx.points.append(books.mapValues(\.lines))
        try await tx.points.insert(badges: books.mapValues(\.badges))
        try await tx.points.insert(events: books.mapValues(\.events))
        try await self.analytics.record(
            people.flatMap { user, books in self.analyticsEvents(of: books, user: user, now: now) },
            in: tx
        )
        try await tx.enqueue(
            try people.flatMap { user, books in try self.news(of: books, user: user, now: now) },
            at: now
        )
        try await tx.points.save(books.mapValues(\.stats), at: now)
    }

    /// The server's analytics events of what the books gained: levels reached, badges unlocked.
    private func analyticsEvents(of books: Books, user: User.ID, now: Date) -> [AnalyticsEvent] {
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
        }
    }

    /// The jobs the books' events raise: "achievement" notifications, and badges posted to the circles' feeds.
    private func news(of books: Books, user: User.ID, now: Date) throws -> [JobRecord] {
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
            }
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
