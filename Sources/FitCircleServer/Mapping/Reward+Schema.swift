import FitCircleAPI
import FitCircleCore
import FitCircleEngine

extension Components.Schemas.Reward {
    init(_ reward: Reward) throws {
        self.init(
            points: reward.points,
            totalPoints: reward.totalPoints,
            level: reward.level,
            counted: reward.series?.counted,
            excess: reward.series?.excess,
            capReached: reward.series.map(\.capReached),
            message: reward.message,
            lines: try reward.lines.map(Components.Schemas.PointsLine.init),
            badges: reward.badges.map { Components.Schemas.UnlockedBadge($0, catalog: nil) }
        )
    }
}

extension Components.Schemas.PointsLine {
    init(_ line: FitCircleCore.PointsLine) throws {
        let detail = line.detail
        self.init(
            id: line.id.rawValue,
            date: line.date.iso,
            amount: line.amount,
            reason: try mapped(line.reason),
            sourceEventId: line.sourceEventID?.rawValue,
            multiplier: line.multiplier,
            counted: line.counted,
            excess: line.excess,
            detail: .init(
                series: detail.series.map(Components.Schemas.SeriesAward.init),
                level: detail.level,
                dailyGoal: detail.dailyGoal,
                streak: detail.streak,
                weekStart: detail.weekStart?.iso,
                target: detail.target,
                badgeId: detail.badgeID,
                goalId: detail.goalID,
                reverses: detail.reverses?.rawValue,
                challengeId: detail.challengeID,
                late: detail.late
            ),
            createdAt: line.createdAt
        )
    }
}

extension Components.Schemas.SeriesAward {
    init(_ award: Points.SeriesAward) {
        self.init(
            series: award.series,
            reps: award.reps,
            counted: award.counted,
            excess: award.excess,
            cap: award.cap,
            repMultiplier: award.repMultiplier,
            seriesMultiplier: award.seriesMultiplier,
            streakMultiplier: award.streakMultiplier,
            points: award.points
        )
    }
}

extension Components.Schemas.PointsDay {
    init(_ day: FitCircleCore.PointsDay) {
        self.init(
            date: day.date.iso,
            points: day.points,
            multiplier: day.multiplier,
            pushupsCounted: day.pushupsCounted,
            pushupsExcess: day.pushupsExcess
        )
    }
}

extension Components.Schemas.PointsStats {
    init(_ stats: Rewards.Stats, unit: String) {
        self.init(
            unit: unit,
            totalPoints: stats.stats.totalPoints,
            level: stats.standing.level,
            levelStartsAt: stats.standing.levelStartsAt,
            nextLevelAt: stats.standing.nextLevelAt,
            pointsToNextLevel: stats.standing.pointsToNextLevel,
            today: .init(value1: .init(stats.today)),
            pushupCap: stats.pushupCap,
            counters: .init(
                additionalProperties: Dictionary(
                    uniqueKeysWithValues: stats.stats.allCounters.map { ($0.key.rawValue, $0.value) }
                )
            ),
            weeklyChallenge: stats.weeklyChallenge.map { challenge in
                .init(
                    weekStart: challenge.weekStart.iso,
                    title: "Complete \(challenge.target) push-ups this week",
                    target: challenge.target,
                    progress: challenge.progress,
                    completed: challenge.completed,
                    badge: challenge.badge
                )
            }
        )
    }
}

extension Components.Schemas.Badge {
    init(_ progress: Rewards.BadgeProgress) throws {
        let badge = progress.badge
        self.init(
            id: badge.id,
            name: badge.name,
            description: badge.description,
            icon: badge.icon,
            category: try mapped(badge.category),
            rarity: try mapped(badge.rarity),
            xp: badge.xp,
            requirement: badge.requirement.all.map {
                .init(counter: $0.counter.rawValue, atLeast: $0.atLeast, value: progress.counters[$0.counter] ?? 0)
            },
            progress: progress.progress,
            unlocked: progress.unlockedAt != nil,
            unlockedAt: progress.unlockedAt,
            holders: progress.holders
        )
    }
}

extension Components.Schemas.UnlockedBadge {
    init(_ badge: UnlockedBadge, catalog: [Badge]?) {
        let entry = catalog?.first { $0.id == badge.badgeID }
        self.init(
            id: badge.badgeID,
            name: badge.name,
            date: badge.date.iso,
            unlockedAt: badge.unlockedAt,
            icon: entry?.icon,
            category: entry?.category.rawValue,
            rarity: entry?.rarity.rawValue
        )
    }
}

extension Components.Schemas.UserBadges {
    init(user: User.ID, _ badges: (badges: [UnlockedBadge], showcase: [UnlockedBadge]), catalog: [Badge]) {
        self.init(
            userId: user.rawValue,
            badges: badges.badges.map { .init($0, catalog: catalog) },
            showcase: badges.showcase.map { .init($0, catalog: catalog) }
        )
    }
}
