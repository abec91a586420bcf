public import FitCircleCore
import FitCircleStore
public import Foundation

/// Demo accounts with three weeks of activity, so that someone trying FitCircle has something to click
/// through (`fitcircle serve --demo`). Seeded once, through the same use cases as the API, dated back
/// from now: steps, runs, push-up series, three weeks of app opens and check-ins with a few misses (what
/// `fitcircle simulate` replays under another freeze policy), yesterday's and today's check-ins; a
/// circle the three compete in, with today's claims on its boards, its feed and an encouragement;
/// friendships, a reaction and a running challenge (`social`); a challenge with stakes already won and
/// its news opened (`settledChallenge`); and the operators' metrics rolled up for
/// the three weeks, so the console's curves, cohorts and funnels show at once.
public enum DemoData {
    public static let accounts: [(email: String, name: String, timeZone: String)] = [
        ("ana@demo.fitcircle.dev", "Ana", "Europe/Paris"),
        ("ben@demo.fitcircle.dev", "Ben", "America/New_York"),
        ("chloe@demo.fitcircle.dev", "Chloé", "Asia/Tokyo"),
    ]

    /// Seeds the accounts unless the first one already exists; answers whether it did.
    public static func seed(_ engine: Engine, now: Date) async throws -> Bool {
        var users: [User.ID] = []
        for (index, account) in Self.accounts.enumerated() {
            let signIn = try await engine.accounts.devSignIn(
                email: account.email,
                name: account.name,
                timeZone: account.timeZone
            )
            if index == 0 && !signIn.isNewUser { return false }
            let user = signIn.user.id
            _ = try await engine.profiles.update(
                user,
                with: ProfileInput(
                    displayName: account.name,
                    age: 28 + 5 * index,
                    weight: 58 + 9 * Double(index),
                    weightUnit: .kg,
                    timeZone: account.timeZone
                )
            )
            _ = try await engine.activities.recordBatch(
                Self.history(of: index, zone: account.timeZone, now: now)
                    + Self.checkIns(
                        of: index,
                        zone: account.timeZone,
                        now: now,
                        weekStartsOn: engine.profile.week.startsOn
                    ),
                for: user
            )
            let yesterday = LocalDate(now, in: TimeZone(identifier: account.timeZone) ?? .gmt).adding(days: -1)
            _ = try await engine.streaks.checkIn(
                .init(checkIn: CheckIn(mood: 4, energy: 3, sentiment: .great), date: yesterday),
                for: user
            )
            _ = try await engine.streaks.checkIn(.init(checkIn: CheckIn(mood: 5, energy: 4, sentiment: .ok)), for: user)
            users.append(user)
        }
        try await Self.circle(of: users, engine: engine, now: now)
        try await Self.social(of: users, engine: engine, now: now)
        try await Self.settledChallenge(of: users, engine: engine, now: now)
        // The accounts are as old as their history, so the console's cohorts have a first day to read.
        let created = now.addingTimeInterval(-21 * 86_400 - 3_600)
        try await engine.accounts.store.transaction { [users] tx in
            for user in users { try await tx.users.backdate(user, createdAt: created) }
        }
        let today = LocalDate(now, in: .gmt)
        try await engine.metrics.rollUp(from: today.adding(days: -22), to: today.adding(days: -1))
        return true
    }

    /// "Demo Walkers": begun a week ago (so every member's today counts, wherever they are), each member's
    /// steps so far today claimed, Ben cheering Chloé's.
    static func circle(of users: [User.ID], engine: Engine, now: Date) async throws {
        let paris = TimeZone(identifier: Self.accounts[0].timeZone) ?? .gmt
        let input = CircleInput(
            name: "Demo Walkers",
            description: "Three friends, one step count.",
            metric: .steps,
            startDate: LocalDate(now, in: paris).adding(days: -7),
            privacy: .public
        )
        let circle = try await engine.circles.create(input, weights: WeightGoalInput(), by: users[0]).circle
        for user in users.dropFirst() {
            _ = try await engine.circles.join(
                code: circle.joinCode,
                invitation: nil,
                weights: WeightGoalInput(),
                by: user
            )
        }
        for (index, user) in users.enumerated() {
            let steps = StepTotals(steps: 3_200 + 1_700 * index, distanceMeters: Double(3_200 + 1_700 * index) * 0.75)
            let zone = Self.accounts[index].timeZone
            _ = try await engine.activities.recordBatch(
                [
                    ActivityInput(
                        clientEventID: "demo-steps-today",
                        occurredAt: now,
                        timeZone: zone,
                        source: .healthkit,
                        payload: .steps(steps)
                    )
                ],
                for: user
            )
            _ = try await engine.circles.submit(to: circle.id, date: nil, by: user)
        }
        let feed = try await engine.circles.feed(of: circle.id, before: nil, limit: 10, for: users[1]).rows
        if let chloes = feed.first(where: { $0.item.actorID == users[2] && $0.item.kind == .submission }) {
            _ = try await engine.circles.encourage(
                chloes.item.id,
                in: circle.id,
                message: Encouragement.presets[0],
                by: users[1]
            )
        }
    }

    /// App opens from 21 days before today to today, and check-ins to 2 days before (the use case checks in
    /// yesterday and today). Ana misses last week's first day and, two days later, two days in a row; Ben
    /// misses last week's Tuesday and Friday (a second miss in a week: one freeze a week loses the streak, two
    /// a month keep it); Chloé misses one day 10 days ago.
    static func checkIns(of account: Int, zone identifier: String, now: Date, weekStartsOn: Weekday) -> [ActivityInput]
    {
        let zone = TimeZone(identifier: identifier) ?? .gmt
        let today = LocalDate(now, in: zone)
        let lastWeek = today.startOfWeek(startingOn: weekStartsOn).adding(days: -7)
        let missed: Set<LocalDate> =
            switch account {
            case 0: [lastWeek, lastWeek.adding(days: 2), lastWeek.adding(days: 3)]
            case 1: [lastWeek.adding(days: 1), lastWeek.adding(days: 4)]
            case 2: [today.adding(days: -10)]
            default: []
            }
        return (0...21).reversed().map { today.adding(days: -$0) }.filter { !missed.contains($0) }.flatMap {
            date -> [ActivityInput] in
            let evening = min(now, date.instant(at: LocalTime.at(21), in: zone) ?? now)
            let open = ActivityInput(
                clientEventID: "demo-open-\(date.iso)",
                occurredAt: evening.addingTimeInterval(-60),
                timeZone: identifier,
                source: .app,
                payload: .appOpen
            )
            guard date < today.adding(days: -1) else { return [open] }
            return [
                open,
                ActivityInput(
                    clientEventID: CheckIn.clientEventID(for: date),
                    occurredAt: evening,
                    timeZone: identifier,
                    source: .app,
                    payload: .checkIn(CheckIn(mood: 3 + date.day % 3, energy: 3)),
                    date: date
                ),
            ]
        }
    }

    /// 21 days before today: a step total every day, a run every third day, two push-up series a day.
    /// The figures vary by day and account but are the same on every seed.
    static func history(of account: Int, zone: String, now: Date) -> [ActivityInput] {
        var inputs: [ActivityInput] = []
        for daysAgo in (1...21).reversed() {
            let evening = now.addingTimeInterval(-Double(daysAgo) * 86_400)
            let steps = 4_000 + (daysAgo * 1_237 + account * 2_911) % 8_000
            inputs.append(
                ActivityInput(
                    clientEventID: "demo-steps-\(daysAgo)",
                    occurredAt: evening,
                    timeZone: zone,
                    source: .healthkit,
                    payload: .steps(StepTotals(steps: steps, distanceMeters: Double(steps) * 0.75))
                )
            )
            if (daysAgo + account) % 3 == 0 {
                inputs.append(
                    ActivityInput(
                        clientEventID: "demo-run-\(daysAgo)",
                        occurredAt: evening.addingTimeInterval(-3_600),
                        timeZone: zone,
                        source: .app,
                        payload: .workout(
                            Workout(
                                type: .running,
                                durationSeconds: Double(1_500 + 60 * (daysAgo % 10)),
                                distanceMeters: 5_000
                            )
                        )
                    )
                )
            }
            for series in 1...2 {
                inputs.append(
                    ActivityInput(
                        clientEventID: "demo-pushups-\(daysAgo)-\(series)",
                        occurredAt: evening.addingTimeInterval(-Double(series) * 600),
                        timeZone: zone,
                        source: .app,
                        payload: .workout(
                            Workout(
                                type: .pushups,
                                durationSeconds: 90,
                                series: series,
                                reps: 12 + 4 * account + series
                            )
                        )
                    )
                )
            }
        }
        return inputs
    }
}
