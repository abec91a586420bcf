import FitCircleCore
import Foundation
import Testing

/// Board periods, scores from claims, the place a new key takes, and the feed's words.
struct BoardRulesTests {
    static func day(_ iso: String) -> LocalDate { LocalDate(iso: iso)! }

    static func claim(_ date: String, steps: Int = 0, weight: Double? = nil, streak: Int = 0, at: TimeInterval)
        -> CircleSubmission
    {
        CircleSubmission(
            circleID: FitCircle.ID("c"),
            userID: User.ID("u"),
            date: Self.day(date),
            steps: steps,
            weightKg: weight,
            checkinStreak: streak,
            submittedAt: Date(timeIntervalSince1970: at),
            updatedAt: Date(timeIntervalSince1970: at)
        )
    }

    @Test func periodsStartAndEndWhereTheCalendarSays() {
        let date = Self.day("2026-03-04")  // a Wednesday
        #expect(BoardPeriod.daily.start(of: date, weekStart: .monday, circleStart: Self.day("2026-01-10")) == date)
        #expect(
            BoardPeriod.weekly.start(of: date, weekStart: .monday, circleStart: Self.day("2026-01-10"))
                == Self.day("2026-03-02")
        )
        #expect(
            BoardPeriod.weekly.start(of: date, weekStart: .sunday, circleStart: Self.day("2026-01-10"))
                == Self.day("2026-03-01")
        )
        #expect(
            BoardPeriod.monthly.start(of: date, weekStart: .monday, circleStart: Self.day("2026-01-10"))
                == Self.day("2026-03-01")
        )
        #expect(
            BoardPeriod.allTime.start(of: date, weekStart: .monday, circleStart: Self.day("2026-01-10"))
                == Self.day("2026-01-10")
        )
        #expect(BoardPeriod.monthly.end(startingOn: Self.day("2026-02-01")) == Self.day("2026-02-28"))
        #expect(BoardPeriod.monthly.end(startingOn: Self.day("2028-02-01")) == Self.day("2028-02-29"))
        #expect(BoardPeriod.weekly.end(startingOn: Self.day("2026-03-02")) == Self.day("2026-03-08"))
        #expect(BoardPeriod.allTime.end(startingOn: Self.day("2026-01-10")) == nil)
        #expect(BoardPeriod.weekly.holds(Self.day("2026-03-08"), startingOn: Self.day("2026-03-02")))
        #expect(!BoardPeriod.weekly.holds(Self.day("2026-03-09"), startingOn: Self.day("2026-03-02")))
        #expect(BoardPeriod.allTime.holds(Self.day("2027-01-01"), startingOn: Self.day("2026-01-10")))
        #expect(!BoardPeriod.allTime.holds(Self.day("2026-01-09"), startingOn: Self.day("2026-01-10")))
        // Baselines: the period before; for all-time, yesterday's close.
        #expect(
            BoardPeriod.monthly.baseline(ofPeriodStarting: Self.day("2026-03-01"), today: date)
                == Self.day("2026-02-01")
        )
        #expect(
            BoardPeriod.weekly.baseline(ofPeriodStarting: Self.day("2026-03-02"), today: date) == Self.day("2026-02-23")
        )
        #expect(
            BoardPeriod.allTime.baseline(ofPeriodStarting: Self.day("2026-01-10"), today: date)
                == Self.day("2026-03-03")
        )
    }

    static func score(
        _ metric: FitCircle.Metric,
        _ period: BoardPeriod,
        from start: String,
        _ claims: [CircleSubmission],
        _ membership: CircleMembership? = nil,
        end: String? = nil
    ) -> (value: Double, reachedAt: Date)? {
        BoardScore.score(
            metric,
            on: period,
            startingOn: Self.day(start),
            claims: claims,
            membership: membership,
            circleEnd: end.map(Self.day)
        )
    }

    static let member = CircleMembership(
        circleID: FitCircle.ID("c"),
        userID: User.ID("u"),
        role: .member,
        joinedAt: .distantPast,
        startingWeightKg: 82,
        targetWeightKg: 72
    )

    @Test func scoresComeFromTheClaimsOfThePeriod() {
        let claims = [
            Self.claim("2026-03-02", steps: 8_000, weight: 80, streak: 3, at: 100),
            Self.claim("2026-03-03", steps: 6_000, streak: 4, at: 300),
            Self.claim("2026-03-04", steps: 1_000, weight: 78.5, streak: 5, at: 200),
        ]
        let steps = Self.score(.steps, .weekly, from: "2026-03-02", claims)
        #expect(steps?.value == 15_000 && steps?.reachedAt == Date(timeIntervalSince1970: 300))
        #expect(Self.score(.steps, .daily, from: "2026-03-03", claims)?.value == 6_000)
        // Daily on a weight-loss circle: (82 − 78.5) / (82 − 72) × 100 = 35 % of the goal.
        let loss = Self.score(.weightLossPct, .daily, from: "2026-03-04", claims, Self.member)
        #expect(loss?.value == 35 && loss?.reachedAt == Date(timeIntervalSince1970: 200))
        #expect(Self.score(.weightLossPct, .daily, from: "2026-03-04", claims) == nil)
        // no weight that day
        #expect(Self.score(.weightLossPct, .daily, from: "2026-03-03", claims, Self.member) == nil)
        #expect(Self.score(.checkinStreak, .weekly, from: "2026-03-02", claims)?.value == 5)
        #expect(Self.score(.steps, .weekly, from: "2026-03-02", []) == nil)
    }

    /// Spec 000 F3's table for weight-loss circles, on a circle of 2–29 March (four weeks), a member from
    /// 82 kg aiming at 72: weekly, the share of the week's target lost this week; monthly, kilograms lost
    /// this month; all-time, kilograms lost since joining.
    @Test func f3_weightLossBoardsRankTheWeeksTargetTheMonthsKilogramsAndAllTimeKilograms() {
        let claims = [Self.claim("2026-03-04", weight: 80, at: 100), Self.claim("2026-03-11", weight: 79, at: 200)]
        // Week 1 from 82: (82 − 72) / 4 weeks = 2.5 kg; 2 lost = 80 %.
        #expect(
            Self.score(.weightLossPct, .weekly, from: "2026-03-02", claims, Self.member, end: "2026-03-29")?.value == 80
        )
        // Week 2 from 80 (the latest weight before it): (80 − 72) / 3 = 2.67 kg; 1 lost = 37.5 %.
        #expect(
            Self.score(.weightLossPct, .weekly, from: "2026-03-09", claims, Self.member, end: "2026-03-29")?.value
                == 37.5
        )
        // Open-ended: half a kilogram a week, so 1 kg is 200 %.
        #expect(Self.score(.weightLossPct, .weekly, from: "2026-03-09", claims, Self.member)?.value == 200)
        // March from the starting weight: 3 kg; all-time likewise; April from 79.
        #expect(Self.score(.weightLossPct, .monthly, from: "2026-03-01", claims, Self.member)?.value == 3)
        #expect(Self.score(.weightLossPct, .allTime, from: "2026-03-02", claims, Self.member)?.value == 3)
        let april = claims + [Self.claim("2026-04-02", weight: 78.2, at: 300)]
        #expect(Self.score(.weightLossPct, .monthly, from: "2026-04-01", april, Self.member)?.value == 0.8)
        #expect(Self.score(.weightLossPct, .allTime, from: "2026-03-02", april, Self.member)?.value == 3.8)
        // Gained: negative kilograms; at the target before the week: 100 %.
        #expect(
            Self.score(
                .weightLossPct,
                .monthly,
                from: "2026-04-01",
                claims + [Self.claim("2026-04-02", weight: 79.5, at: 300)],
                Self.member
            )?.value == -0.5
        )
        let there = [Self.claim("2026-03-04", weight: 71.5, at: 100), Self.claim("2026-03-10", weight: 71.8, at: 200)]
        #expect(
            Self.score(.weightLossPct, .weekly, from: "2026-03-09", there, Self.member, end: "2026-03-29")?.value == 100
        )
        #expect(BoardScore.goalPercent(ofKilogramsLost: 3.8, membership: Self.member) == 38)
        #expect(
            BoardMeasure.of(.weightLossPct, .monthly).revealsWeight
                && !BoardMeasure.of(.weightLossPct, .weekly).revealsWeight
        )
    }

    @Test func f2_theWeeksWeightTargetSpreadsWhatIsLeftOverTheWeeksLeft() {
        let monday = Self.day("2026-03-09")
        #expect(WeightLossPace.weeklyKg(from: 80, to: 72, weekStart: monday, circleEnd: Self.day("2026-03-29")) == 2.67)
        // A part week counts whole: 9–31 March is 23 days, 4 weeks.
        #expect(WeightLossPace.weeklyKg(from: 80, to: 72, weekStart: monday, circleEnd: Self.day("2026-03-31")) == 2)
        #expect(WeightLossPace.weeklyKg(from: 80, to: 72, weekStart: monday, circleEnd: monday) == 8)
        #expect(WeightLossPace.weeklyKg(from: 80, to: 72, weekStart: monday, circleEnd: nil) == 0.5)
        #expect(WeightLossPace.weeklyKg(from: 72.3, to: 72, weekStart: monday, circleEnd: nil) == 0.3)
        #expect(WeightLossPace.weeklyKg(from: 71, to: 72, weekStart: monday, circleEnd: nil) == 0)
        #expect(WeightLossPace.weeklyKg(from: .nan, to: 72, weekStart: monday, circleEnd: nil) == 0)
        // F1: "daily target: -0.1 to -0.3 lbs" — a seventh of the week, within 0.05–0.13 kg.
        #expect(WeightLossPace.dailyKg(weekly: 2.67) == 0.13)
        #expect(WeightLossPace.dailyKg(weekly: 0.7) == 0.1)
        #expect(WeightLossPace.dailyKg(weekly: 0.2) == 0.05)
        #expect(WeightLossPace.dailyKg(weekly: 0) == 0)
    }

    @Test func aClaimMadeAgainKeepsWhenItsValueWasReachedUnlessTheValueChanged() {
        let first = Self.claim("2026-03-02", steps: 8_000, at: 100)
        #expect(
            first.reclaimed(
                steps: 8_000,
                weightKg: nil,
                checkinStreak: 0,
                metric: .steps,
                at: Date(timeIntervalSince1970: 500)
            ) == nil
        )
        let weighed = first.reclaimed(
            steps: 8_000,
            weightKg: 70,
            checkinStreak: 0,
            metric: .steps,
            at: Date(timeIntervalSince1970: 500)
        )
        #expect(weighed?.weightKg == 70 && weighed?.updatedAt == Date(timeIntervalSince1970: 100))
        let walked = first.reclaimed(
            steps: 9_000,
            weightKg: nil,
            checkinStreak: 0,
            metric: .steps,
            at: Date(timeIntervalSince1970: 500)
        )
        #expect(walked?.updatedAt == Date(timeIntervalSince1970: 500))
    }

    @Test func aNewKeyTakesThePlaceAfterThoseBeforeIt() {
        var index = RankIndex()
        for (user, value) in [("a", 9_000.0), ("b", 7_000), ("c", 5_000), ("d", 3_000)] {
            index.upsert(BoardKey(value: value, reachedAt: Date(timeIntervalSince1970: 0), user: User.ID(user)))
        }
        // D climbing to 8,000 would pass B and C: second place; C falling to 1,000 would be last (fourth).
        #expect(
            index.countBefore(BoardKey(value: 8_000, reachedAt: Date(timeIntervalSince1970: 10), user: User.ID("d")))
                == 1
        )
        #expect(
            index.countBefore(BoardKey(value: 1_000, reachedAt: Date(timeIntervalSince1970: 10), user: User.ID("c")))
                == 3
        )
        let (first, keys) = index.entries(
            after: BoardKey(value: 7_000, reachedAt: Date(timeIntervalSince1970: 0), user: User.ID("b")),
            limit: 5
        )
        #expect(first == 3 && keys.map(\.user.rawValue) == ["c", "d"])
    }

    @Test func keysKeepTheirInstantToTheMillisecondAsTheDatabaseDoes() {
        let key = BoardKey.truncated(
            value: 1,
            reachedAt: Date(timeIntervalSince1970: 1_772_442_000.123_456_7),
            user: User.ID("u")
        )
        #expect(key.reachedMilliseconds == 1_772_442_000_123)
        #expect(key == BoardKey(value: 1, reachedMilliseconds: 1_772_442_000_123, user: User.ID("u")))
    }

    @Test func theFeedTellsARankOnlyWhenTheClaimEarnedIt() throws {
        #expect(
            FeedText.submission(name: "Sam", metric: .steps, value: 11_800, rank: 1, previousRank: 2)
                == "🏃 Sam submitted 11,800 steps—now #1!"
        )
        #expect(
            FeedText.submission(name: "Sam", metric: .steps, value: 11_900, rank: 1, previousRank: 1)
                == "🏃 Sam submitted 11,900 steps"
        )
        #expect(
            FeedText.submission(name: "Bo", metric: .steps, value: 500, rank: 3, previousRank: 7)
                == "🏃 Bo submitted 500 steps—now in the top 3!"
        )
        #expect(
            FeedText.submission(name: "Bo", metric: .steps, value: 500, rank: 2, previousRank: nil)
                == "🏃 Bo submitted 500 steps"
        )
        #expect(
            FeedText.submission(name: "Cy", metric: .weightLossPct, value: 42.5, rank: 4, previousRank: 4)
                == "⚖️ Cy weighed in at 42.5% of their goal"
        )
        #expect(throws: ValidationError.self) { try Encouragement.message(String(repeating: "x", count: 141)) }
        #expect(try Encouragement.message("  ") == nil)
    }
}
