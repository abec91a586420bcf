import FitCircleCore
import Foundation
import Testing

/// Board periods, scores from claims, the place a new key takes, and the feed's words.
struct BoardRulesTests {
    static func day(_ iso: String) -> LocalDate { LocalDate(iso: iso)! }

    static func claim(_ date: String, steps: Int = 0, weight: Double? = nil, streak: Int = 0, at: TimeInterval) -> CircleSubmission {
        CircleSubmission(
            circleID: FitCircle.ID("c"), userID: User.ID("u"), date: Self.day(date), steps: steps, weightKg: weight, checkinStreak: streak,
            submittedAt: Date(timeIntervalSince1970: at), updatedAt: Date(timeIntervalSince1970: at))
    }

    @Test func periodsStartAndEndWhereTheCalendarSays() {
        let date = Self.day("2026-03-04")  // a Wednesday
        #expect(BoardPeriod.daily.start(of: date, weekStart: .monday, circleStart: Self.day("2026-01-10")) == date)
        #expect(BoardPeriod.weekly.start(of: date, weekStart: .monday, circleStart: Self.day("2026-01-10")) == Self.day("2026-03-02"))
        #expect(BoardPeriod.weekly.start(of: date, weekStart: .sunday, circleStart: Self.day("2026-01-10")) == Self.day("2026-03-01"))
        #expect(BoardPeriod.monthly.start(of: date, weekStart: .monday, circleStart: Self.day("2026-01-10")) == Self.day("2026-03-01"))
        #expect(BoardPeriod.allTime.start(of: date, weekStart: .monday, circleStart: Self.day("2026-01-10")) == Self.day("2026-01-10"))
        #expect(BoardPeriod.monthly.end(startingOn: Self.day("2026-02-01")) == Self.day("2026-02-28"))
        #expect(BoardPeriod.monthly.end(startingOn: Self.day("2028-02-01")) == Self.day("2028-02-29"))
        #expect(BoardPeriod.weekly.end(startingOn: Self.day("2026-03-02")) == Self.day("2026-03-08"))
        #expect(BoardPeriod.allTime.end(startingOn: Self.day("2026-01-10")) == nil)
        #expect(BoardPeriod.weekly.holds(Self.day("2026-03-08"), startingOn: Self.day("2026-03-02")))
        #expect(!BoardPeriod.weekly.holds(Self.day("2026-03-09"), startingOn: Self.day("2026-03-02")))
        #expect(BoardPeriod.allTime.holds(Self.day("2027-01-01"), startingOn: Self.day("2026-01-10")))
        #expect(!BoardPeriod.allTime.holds(Self.day("2026-01-09"), startingOn: Self.day("2026-01-10")))
        // Baselines: the period before; for all-time, yesterday's close.
        #expect(BoardPeriod.monthly.baseline(ofPeriodStarting: Self.day("2026-03-01"), today: date) == Self.day("2026-02-01"))
        #expect(BoardPeriod.weekly.baseline(ofPeriodStarting: Self.day("2026-03-02"), today: date) == Self.day("2026-02-23"))
        #expect(BoardPeriod.allTime.baseline(ofPeriodStarting: Self.day("2026-01-10"), today: date) == Self.day("2026-03-03"))
    }

    @Test func scoresComeFromTheClaimsOfThePeriodAlone() {
        let claims = [
            Self.claim("2026-03-02", steps: 8_000, weight: 80, streak: 3, at: 100),
            Self.claim("2026-03-03", steps: 6_000, streak: 4, at: 300),
            Self.claim("2026-03-04", steps: 1_000, weight: 78.5, streak: 5, at: 200),
        ]
        let steps = BoardScore.score(.steps, claims: claims, membership: nil)
        #expect(steps?.value == 15_000 && steps?.reachedAt == Date(timeIntervalSince1970: 300))
        let member = CircleMembership(
            circleID: FitCircle.ID("c"), userID: User.ID("u"), role: .member, joinedAt: .distantPast, startingWeightKg: 82, targetWeightKg: 72)
        // (82 − 78.5) / (82 − 72) × 100 = 35 %, at the latest claimed day with a weight.
        let loss = BoardScore.score(.weightLossPct, claims: claims, membership: member)
        #expect(loss?.value == 35 && loss?.reachedAt == Date(timeIntervalSince1970: 200))
        #expect(BoardScore.score(.weightLossPct, claims: claims, membership: nil) == nil)
        #expect(BoardScore.score(.checkinStreak, claims: claims, membership: nil)?.value == 5)
        #expect(BoardScore.score(.steps, claims: [], membership: nil) == nil)
    }

    @Test func aClaimMadeAgainKeepsWhenItsValueWasReachedUnlessTheValueChanged() {
        let first = Self.claim("2026-03-02", steps: 8_000, at: 100)
        #expect(first.reclaimed(steps: 8_000, weightKg: nil, checkinStreak: 0, metric: .steps, at: Date(timeIntervalSince1970: 500)) == nil)
        let weighed = first.reclaimed(steps: 8_000, weightKg: 70, checkinStreak: 0, metric: .steps, at: Date(timeIntervalSince1970: 500))
        #expect(weighed?.weightKg == 70 && weighed?.updatedAt == Date(timeIntervalSince1970: 100))
        let walked = first.reclaimed(steps: 9_000, weightKg: nil, checkinStreak: 0, metric: .steps, at: Date(timeIntervalSince1970: 500))
        #expect(walked?.updatedAt == Date(timeIntervalSince1970: 500))
    }

    @Test func aNewKeyTakesThePlaceAfterThoseBeforeIt() {
        var index = RankIndex()
        for (user, value) in [("a", 9_000.0), ("b", 7_000), ("c", 5_000), ("d", 3_000)] {
            index.upsert(BoardKey(value: value, reachedAt: Date(timeIntervalSince1970: 0), user: User.ID(user)))
        }
        // D climbing to 8,000 would pass B and C: second place; C falling to 1,000 would be last (fourth).
        #expect(index.countBefore(BoardKey(value: 8_000, reachedAt: Date(timeIntervalSince1970: 10), user: User.ID("d"))) == 1)
        #expect(index.countBefore(BoardKey(value: 1_000, reachedAt: Date(timeIntervalSince1970: 10), user: User.ID("c"))) == 3)
        let (first, keys) = index.entries(after: BoardKey(value: 7_000, reachedAt: Date(timeIntervalSince1970: 0), user: User.ID("b")), limit: 5)
        #expect(first == 3 && keys.map(\.user.rawValue) == ["c", "d"])
    }

    @Test func keysKeepTheirInstantToTheMillisecondAsTheDatabaseDoes() {
        let key = BoardKey.truncated(value: 1, reachedAt: Date(timeIntervalSince1970: 1_772_442_000.123_456_7), user: User.ID("u"))
        #expect(key.reachedMilliseconds == 1_772_442_000_123)
        #expect(key == BoardKey(value: 1, reachedMilliseconds: 1_772_442_000_123, user: User.ID("u")))
    }

    @Test func theFeedTellsARankOnlyWhenTheClaimEarnedIt() throws {
        #expect(FeedText.submission(name: "Sam", metric: .steps, value: 11_800, rank: 1, previousRank: 2) == "🏃 Sam submitted 11,800 steps—now #1!")
        #expect(FeedText.submission(name: "Sam", metric: .steps, value: 11_900, rank: 1, previousRank: 1) == "🏃 Sam submitted 11,900 steps")
        #expect(FeedText.submission(name: "Bo", metric: .steps, value: 500, rank: 3, previousRank: 7) == "🏃 Bo submitted 500 steps—now in the top 3!")
        #expect(FeedText.submission(name: "Bo", metric: .steps, value: 500, rank: 2, previousRank: nil) == "🏃 Bo submitted 500 steps")
        #expect(FeedText.submission(name: "Cy", metric: .weightLossPct, value: 42.5, rank: 4, previousRank: 4) == "⚖️ Cy weighed in at 42.5% of their goal")
        #expect(throws: ValidationError.self) { try Encouragement.message(String(repeating: "x", count: 141)) }
        #expect(try Encouragement.message("  ") == nil)
    }
}
