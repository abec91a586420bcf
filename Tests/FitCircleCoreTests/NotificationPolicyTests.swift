import FitCircleCore
import Foundation
import Testing

/// The notification policy as a matrix: critical × preferences × quiet hours × weekend × caps ×
/// already-met × recently-active, in the user's zone, across a DST change and a window that wraps midnight.
struct NotificationPolicyTests {
    static let catalog = NotificationCatalog(
        nonCriticalPerDay: 3,
        nonCriticalPerWeek: 15,
        types: [
            NotificationType(
                type: "daily_checkin_reminder",
                critical: true,
                emailFallback: true,
                at: LocalTime("20:00"),
                personalised: true,
                perDay: 1,
                unlessGoalMet: true,
                title: "Daily check-in",
                body: "Complete your check-in to keep your {streak}-day streak alive!"
            ),
            NotificationType(
                type: "streak_at_risk",
                channels: [.push, .email, .inApp],
                at: LocalTime("09:00"),
                perDay: 1,
                title: "Streak at risk",
                body: "…"
            ),
            NotificationType(type: "leaderboard_change", perDay: 3, perHour: 1, title: "You moved", body: "…"),
            NotificationType(
                type: "social_engagement",
                perDay: 10,
                digestible: true,
                title: "Encouragement",
                body: "…"
            ),
            NotificationType(
                type: "monthly_report",
                channels: [.email],
                at: LocalTime("09:00"),
                monthDay: 1,
                title: "Your month",
                body: "…"
            ),
            NotificationType(
                type: "weekly_digest",
                perWeek: 1,
                outsideBudget: true,
                title: "Week in review",
                body: "…"
            ),
        ]
    )

    static let paris = TimeZone(identifier: "Europe/Paris")!
    static let newYork = TimeZone(identifier: "America/New_York")!

    /// `local` on `date` in `zone`.
    static func at(_ date: String, _ local: String, in zone: TimeZone = paris) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let day = LocalDate(iso: date)!
        let time = LocalTime(local)!
        return calendar.date(
            from: DateComponents(year: day.year, month: day.month, day: day.day, hour: time.hour, minute: time.minute)
        )!
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var type: RaisedType
        var now: Date
        var zone: TimeZone = NotificationPolicyTests.paris
        var preferences = NotificationPreferences.defaults
        var context: @Sendable (inout NotificationContext) -> Void = { _ in }
        var expected: NotificationDecision
        var testDescription: String { self.name }
    }

    // Wednesday 4 March 2026, 18:00 in Paris, unless a case says otherwise.
    static let wednesday = at("2026-03-04", "18:00")

    static let cases: [Case] = [
        Case(
            name: "critical, defaults",
            type: .dailyCheckInReminder,
            now: wednesday,
            expected: .sendNow([.push, .inApp])
        ),
        Case(
            name: "critical ignores its own switches",
            type: .dailyCheckInReminder,
            now: wednesday,
            preferences: NotificationPreferences(types: ["daily_checkin_reminder": [.push: false]]),
            expected: .sendNow([.push, .inApp])
        ),
        Case(
            name: "critical with push off keeps in-app and falls back to email (000 F7)",
            type: .dailyCheckInReminder,
            now: wednesday,
            preferences: NotificationPreferences(push: false, inApp: false),
            expected: .sendNow([.email, .inApp])
        ),
        Case(
            name: "critical with push and email off keeps in-app",
            type: .dailyCheckInReminder,
            now: wednesday,
            preferences: NotificationPreferences(push: false, email: false, inApp: false),
            expected: .sendNow([.inApp])
        ),
        Case(
            name: "critical without a device falls back to email",
            type: .dailyCheckInReminder,
            now: wednesday,
            context: { $0.hasPushDevice = false },
            expected: .sendNow([.email, .inApp])
        ),
        Case(
            name: "optional type with push off for it",
            type: .streakAtRisk,
            now: wednesday,
            preferences: NotificationPreferences(types: ["streak_at_risk": [.push: false]]),
            expected: .sendNow([.email, .inApp])
        ),
        Case(
            name: "optional type with every channel off",
            type: .streakAtRisk,
            now: wednesday,
            preferences: NotificationPreferences(push: false, email: false, inApp: false),
            expected: .drop(reason: "no channel left: the user turned them off or has no device")
        ),
        Case(
            name: "quiet hours defer an optional type",
            type: .streakAtRisk,
            now: at("2026-03-04", "23:00"),
            expected: .deferUntil(at("2026-03-05", "07:00"), reason: "quiet hours until 07:00")
        ),
        Case(
            name: "quiet hours defer a critical type too",
            type: .dailyCheckInReminder,
            now: at("2026-03-04", "22:00"),
            expected: .deferUntil(at("2026-03-05", "07:00"), reason: "quiet hours until 07:00")
        ),
        Case(
            name: "a window that wraps midnight, before its end",
            type: .streakAtRisk,
            now: at("2026-03-05", "05:30"),
            preferences: NotificationPreferences(quietStart: LocalTime("21:00")!, quietEnd: LocalTime("06:00")!),
            expected: .deferUntil(at("2026-03-05", "06:00"), reason: "quiet hours until 06:00")
        ),
        Case(
            name: "a window that wraps midnight, at its end",
            type: .streakAtRisk,
            now: at("2026-03-05", "06:00"),
            preferences: NotificationPreferences(quietStart: LocalTime("21:00")!, quietEnd: LocalTime("06:00")!),
            expected: .sendNow([.push, .email, .inApp])
        ),
        Case(
            name: "weekend pause drops an optional type on Saturday",
            type: .streakAtRisk,
            now: at("2026-03-07", "10:00"),
            preferences: NotificationPreferences(pauseWeekends: true),
            expected: .drop(reason: "non-critical notifications are paused on weekends")
        ),
        Case(
            name: "weekend pause spares a critical type",
            type: .dailyCheckInReminder,
            now: at("2026-03-07", "20:00"),
            preferences: NotificationPreferences(pauseWeekends: true),
            expected: .sendNow([.push, .inApp])
        ),
        Case(
            name: "no pause on a weekday",
            type: .streakAtRisk,
            now: at("2026-03-06", "10:00"),
            preferences: NotificationPreferences(pauseWeekends: true),
            expected: .sendNow([.push, .email, .inApp])
        ),
        Case(
            name: "already met",
            type: .dailyCheckInReminder,
            now: wednesday,
            context: { $0.goalMetToday = true },
            expected: .drop(reason: "the day's goal is already met")
        ),
        Case(
            name: "active 10 minutes ago: optional in the app only",
            type: .streakAtRisk,
            now: wednesday,
            context: { $0.lastActiveAt = wednesday.addingTimeInterval(-600) },
            expected: .sendNow([.inApp])
        ),
        Case(
            name: "active 10 minutes ago: optional email-only dropped",
            type: .monthlyReport,
            now: wednesday,
            context: { $0.lastActiveAt = wednesday.addingTimeInterval(-600) },
            expected: .drop(reason: "the user was active in the app in the last 15 minutes")
        ),
        Case(
            name: "active 10 minutes ago: critical sent",
            type: .dailyCheckInReminder,
            now: wednesday,
            context: { $0.lastActiveAt = wednesday.addingTimeInterval(-600) },
            expected: .sendNow([.push, .inApp])
        ),
        Case(
            name: "active 20 minutes ago",
            type: .streakAtRisk,
            now: wednesday,
            context: { $0.lastActiveAt = wednesday.addingTimeInterval(-1_200) },
            expected: .sendNow([.push, .email, .inApp])
        ),
        Case(
            name: "the type's daily cap",
            type: .streakAtRisk,
            now: wednesday,
            context: { $0.sentOfTypeToday = 1 },
            expected: .drop(reason: "at most 1 'streak_at_risk' a day")
        ),
        Case(
            name: "the type's hourly throttle",
            type: .leaderboardChange,
            now: wednesday,
            context: { $0.sentOfTypeLastHour = 1 },
            expected: .drop(reason: "at most 1 'leaderboard_change' a hour")
        ),
        Case(
            name: "a critical type's own cap still holds",
            type: .dailyCheckInReminder,
            now: wednesday,
            context: { $0.sentOfTypeToday = 1 },
            expected: .drop(reason: "at most 1 'daily_checkin_reminder' a day")
        ),
        Case(
            name: "the day's budget",
            type: .leaderboardChange,
            now: wednesday,
            context: { $0.sentToday = 3 },
            expected: .drop(reason: "the day's budget of 3 is spent")
        ),
        Case(
            name: "the week's budget",
            type: .leaderboardChange,
            now: wednesday,
            context: { $0.sentThisWeek = 15 },
            expected: .drop(reason: "the week's budget of 15 is spent")
        ),
        Case(
            name: "critical is outside the budget",
            type: .dailyCheckInReminder,
            now: wednesday,
            context: { $0.sentToday = 3 },
            expected: .sendNow([.push, .inApp])
        ),
        Case(
            name: "a summary is outside the budget",
            type: .weeklyDigest,
            now: wednesday,
            context: { ($0.sentToday, $0.sentThisWeek) = (3, 15) },
            expected: .sendNow([.push, .inApp])
        ),
        Case(
            name: "a summary's own cap still holds",
            type: .weeklyDigest,
            now: wednesday,
            context: { $0.sentOfTypeThisWeek = 1 },
            expected: .drop(reason: "at most 1 'weekly_digest' a week")
        ),
        Case(
            name: "social gathered into the digest",
            type: .socialEngagement,
            now: wednesday,
            preferences: NotificationPreferences(digest: ["social_engagement"]),
            expected: .deferUntil(at("2026-03-04", "20:00"), reason: "gathered into the digest")
        ),
        Case(
            name: "a type the app does not list",
            type: .friendActivity,
            now: wednesday,
            expected: .drop(reason: "unknown type 'friend_activity'")
        ),
        // New York springs forward on 8 March 2026: 01:30 EST is in the quiet window; 07:00 is EDT then.
        Case(
            name: "quiet hours across spring forward",
            type: .streakAtRisk,
            now: at("2026-03-08", "01:30", in: newYork),
            zone: newYork,
            expected: .deferUntil(Date(timeIntervalSince1970: 1_772_967_600), reason: "quiet hours until 07:00")
        ),
        // A quiet window ending at 02:30, a time that does not exist that night: it ends at 03:00 EDT.
        Case(
            name: "a quiet end that DST skips",
            type: .streakAtRisk,
            now: at("2026-03-08", "01:45", in: newYork),
            zone: newYork,
            preferences: NotificationPreferences(quietStart: LocalTime("23:00")!, quietEnd: LocalTime("02:30")!),
            expected: .deferUntil(Date(timeIntervalSince1970: 1_772_953_200), reason: "quiet hours until 02:30")
        ),
    ]

    @Test(arguments: Self.cases)
    func theDecision(_ row: Case) {
        var context = NotificationContext(now: row.now, timeZone: row.zone)
        row.context(&context)
        let decision = NotificationPolicy.decide(
            NotificationCandidate(type: row.type, dedupeKey: "k"),
            catalog: Self.catalog,
            preferences: row.preferences,
            context: context
        )
        #expect(decision == row.expected)
    }

    /// Issue 48: after a node was down, Saturday's 20:00 check-in reminder was made up at 00:14 on Sunday,
    /// deferred by quiet hours and delivered at noon saying "start your streak" about a day gone by. A day's
    /// reminder is dropped once its day is over where the person is, and quiet hours that outlast its day
    /// drop it rather than defer it — across the October clock change in Paris (25 October 2026).
    @Test func aDaysReminderWhoseDayIsOverIsDroppedHoweverLateItComes() {
        let saturday = LocalDate(iso: "2026-10-24")!
        let reminder = NotificationCandidate(type: .dailyCheckInReminder, dedupeKey: "k", day: saturday)
        func decide(at instant: Date, quietFrom start: String = "22:00") -> NotificationDecision {
            var preferences = NotificationPreferences.defaults
            preferences.quietStart = LocalTime(start)!
            preferences.quietEnd = LocalTime("07:00")!
            return NotificationPolicy.decide(
                reminder,
                catalog: Self.catalog,
                preferences: preferences,
                context: NotificationContext(now: instant, timeZone: Self.paris)
            )
        }
        // Made up late, just after midnight on the night the clocks go back: dropped.
        #expect(
            decide(at: Self.at("2026-10-25", "00:14"))
                == .drop(reason: "its day (2026-10-24) is over where the user is")
        )
        // At 22:30 on its day, quiet hours would carry it into Sunday: dropped rather than deferred.
        #expect(
            decide(at: Self.at("2026-10-24", "22:30"))
                == .drop(reason: "quiet hours until 07:00 outlast its day (2026-10-24)")
        )
        // On time it goes out; so does a reminder of no day, deferred past midnight.
        #expect(decide(at: Self.at("2026-10-24", "20:00")) == .sendNow([.push, .inApp]))
        let news = NotificationCandidate(type: .dailyCheckInReminder, dedupeKey: "n")
        var preferences = NotificationPreferences.defaults
        preferences.quietStart = LocalTime("22:00")!
        if case .deferUntil = NotificationPolicy.decide(
            news,
            catalog: Self.catalog,
            preferences: preferences,
            context: NotificationContext(now: Self.at("2026-10-24", "22:30"), timeZone: Self.paris)
        ) {
        } else {
            Issue.record("a candidate of no day is deferred by quiet hours")
        }
        // The same reminder, read in Tokyo (already Sunday there at 20:00 Paris time): over.
        let tokyo = TimeZone(identifier: "Asia/Tokyo")!
        #expect(
            NotificationPolicy.decide(
                reminder,
                catalog: Self.catalog,
                preferences: .defaults,
                context: NotificationContext(now: Self.at("2026-10-24", "20:00"), timeZone: tokyo)
            )
                == .drop(reason: "its day (2026-10-24) is over where the user is")
        )
    }

    /// Issue 48: challenge copy said "1 days left". A count's word agrees with it.
    @Test func aCountsWordAgreesWithIt() {
        let type = NotificationType(
            type: "challenge_progress",
            title: "'{challenge}'",
            body: "{daysLeft} {daysLeft:day|days} left, {rank:one|many} ({rank})"
        )
        #expect(type.render(["daysLeft": "1", "rank": "2", "challenge": "x"]).body == "1 day left, many (2)")
        #expect(type.render(["daysLeft": "3", "rank": "1", "challenge": "x"]).body == "3 days left, one (1)")
        #expect(
            type.render(["daysLeft": "0"]).body == "0 days left, {rank:one|many} ({rank})",
            "what the data lacks stays as written"
        )
    }

    /// The API review's D8: `friend_accepted` linked to `fitcircle://users/{userId}` with the brace in it. It
    /// links to its actor now, and once the actor is no longer to be pointed at (deleted, or "A member" to
    /// this reader) the link goes with their id.
    @Test func aDeepLinkTheDataCannotFillIsLeftOut() {
        let type = NotificationType(
            type: "friend_accepted",
            title: "New friend",
            body: "{name} accepted your friend request.",
            deepLink: "fitcircle://users/{actorId}"
        )
        let data = ["name": "Ana", NotificationNaming.actorKey: "u1"]
        #expect(type.render(data).deepLink == "fitcircle://users/u1")
        #expect(type.render(NotificationNaming.erasingActor(from: data)).deepLink == nil)
        #expect(
            type.render(NotificationNaming.erasingActor(from: data)).body
                == "Deleted user accepted your friend request."
        )
    }

    @Test func preferencesRefuseTurningOffACriticalTypeAndNameTheField() {
        var preferences = NotificationPreferences.defaults
        preferences.types = [
            "daily_checkin_reminder": [.push: false, .email: true], "streak_at_risk": [.email: false],
            "nope": [.push: true],
        ]
        preferences.reminderTime = LocalTime("05:00")!
        preferences.digest = ["streak_at_risk"]
        do {
            try preferences.validate(against: Self.catalog)
            Issue.record("expected a validation error")
        } catch let error as ValidationError {
            #expect(
                error.violations.map(\.field) == [
                    "types.daily_checkin_reminder.push", "types.nope", "digest", "reminderTime",
                ]
            )
        } catch {
            Issue.record("\(error)")
        }
        #expect(throws: Never.self) { try NotificationPreferences.defaults.validate(against: Self.catalog) }
    }

    @Test func aUserWhoChecksInAt0710IsRemindedBetween0610And0640() {
        let recent = (0..<22).map { LocalTime(hour: 7, minute: 5 + $0 % 11)! }  // 07:05–07:15 twice, median 07:10
        let habitual = SendTime.habitual(recent)
        #expect(habitual == LocalTime("07:10"))
        // An early riser whose quiet hours end at 06:00.
        let earlyRiser = NotificationPreferences(quietEnd: LocalTime("06:00")!)
        let planned = SendTime.plan(fallback: LocalTime("20:00")!, habitual: habitual, preferences: earlyRiser)
        #expect(planned >= LocalTime("06:10")! && planned <= LocalTime("06:40")!)
        #expect(SendTime.habitual(Array(recent.prefix(13))) == nil)
        #expect(
            SendTime.plan(fallback: LocalTime("20:00")!, habitual: nil, preferences: .defaults) == LocalTime("20:00")
        )
        // A habit inside quiet hours moves to their end.
        #expect(
            SendTime.plan(fallback: LocalTime("20:00")!, habitual: LocalTime("07:20"), preferences: .defaults)
                == LocalTime("07:00")
        )
        // Spec 001, NOTIF-03: push-up reminders at the median itself.
        #expect(
            SendTime.plan(fallback: LocalTime("09:00")!, habitual: LocalTime("18:30"), lead: 0, preferences: .defaults)
                == LocalTime("18:30")
        )
    }

    @Test func templatesFillTheirVariables() {
        let rendered = Self.catalog["daily_checkin_reminder"]!.render(["streak": "14"])
        #expect(rendered.body == "Complete your check-in to keep your 14-day streak alive!")
    }

    /// Copy follows the state it speaks of: the first variant whose `when` the data matches, else the type's.
    @Test func theFirstMatchingVariantWinsOverTheTypesCopy() {
        let type = NotificationType(
            type: "streak_at_risk",
            title: "Streak at risk",
            body: "Your {streak}-day streak is at risk.",
            variants: [
                .init(
                    when: ["freeze": "used"],
                    body: "Your freeze covered yesterday; keep your {streak}-day streak today."
                ),
                .init(when: ["freeze": "left", "streak": "1"], title: "Careful", body: "One day in, one freeze left."),
                .init(when: ["freeze": "left"], body: "{freezesLeft} freeze left for your {streak}-day streak."),
            ]
        )
        #expect(
            type.render(["streak": "4", "freeze": "used"]).body
                == "Your freeze covered yesterday; keep your 4-day streak today."
        )
        #expect(type.render(["streak": "1", "freeze": "left"]) == ("Careful", "One day in, one freeze left.", nil))
        #expect(
            type.render(["streak": "9", "freeze": "left", "freezesLeft": "1"]).body
                == "1 freeze left for your 9-day streak."
        )
        #expect(type.render(["streak": "9", "freeze": "none"]).body == "Your 9-day streak is at risk.")
        #expect(type.render(["streak": "9"]).title == "Streak at risk")
    }
}
