import FitCircleClient
import FitCircleCore
import FitCircleDelivery
import FitCircleEngine
import FitCircleStore
import FitCircleTesting
import Foundation
import Testing

/// Notifications by email end to end (issue 8): decided, written from the templates with real data, handed
/// to a real SMTP server on loopback, logged; push that fails for good falls back to email; one-click
/// unsubscribe, the opening pixel and tracked links through the HTTP API.
struct EmailDeliveryTests {
    /// Posts activity events (by client event id) at the clock's instant.
    static func post(_ app: TestApp, _ token: String, _ events: [String: [String: Any]]) async throws {
        for (id, body) in events.sorted(by: { $0.key < $1.key }) {
            var event = body
            (event["clientEventId"], event["source"], event["occurredAt"]) = (
                id, "healthkit", ISO8601DateFormatter().string(from: app.clock.now)
            )
            let posted = try await app.request(.post, "/api/activities", token: token, json: event)
            #expect(posted.status == .created, "\(posted.text)")
        }
    }

    /// Spec 000's welcome email, a required type: no unsubscribe, a link to the preferences instead.
    @Test(arguments: Backend.available)
    func theWelcomeEmailIsWrittenFromItsTemplateAndHandedToSMTP(_ backend: Backend) async throws {
        try await FakeSMTP.withTestApp(backend) { app, smtp in
            _ = try await app.onboardedUser()
            try await app.runJobs()
            let welcome = try #require(
                smtp.received.first { $0.subject.hasPrefix("Welcome") },
                "\(smtp.received.map(\.subject))"
            )
            #expect(welcome.subject == "Welcome to FitCircle! Let's get started 🎉")
            #expect(welcome.rcptTos == ["ana@example.com"] && welcome.from == "FitCircle <hello@fitcircle.test>")
            let (text, html) = (try welcome.part("text/plain"), try welcome.part("text/html"))
            #expect(
                text.contains("Hi Ana,") && text.contains("✅ Complete your first daily check-in")
                    && text.contains("See you inside!")
            )
            #expect(html.contains("<p>Hi Ana,</p>") && html.contains("—The FitCircle Team"))
            #expect(
                welcome.headers["List-Unsubscribe"] == nil
                    && text.contains("Email preferences: fitcircle://settings/notifications")
            )
            #expect(html.contains("\(FakeSMTP.publicURL)/api/emails/open/"))
            let user = User.ID(try await app.devSignIn().user.id)
            let record = try #require(
                try await app.store.read { tx in try await tx.notifications.list(of: user, type: "welcome", limit: 1) }
                    .first
            )
            #expect(welcome.messageId == "<\(record.id.rawValue)@fitcircle.test>")
            let attempts = try await app.deliveryAttempts(of: record.id.rawValue)
            #expect(
                attempts.map(\.outcome) == ["delivered"] && attempts.first?.provider == "smtp"
                    && attempts.first?.status == 250
            )
            #expect(attempts.first?.target == "ana@example.com")
            let logged = try #require(
                try await app.store.read { tx in try await tx.deliveries.emailLogEntry(of: record.id) }
            )
            #expect(logged.subject == welcome.subject && logged.address == "ana@example.com")
        }
    }

    /// The week in review carries the week's steps and share of the goal, the streak, the change of
    /// weight, the place on a circle's weekly board, the days the goal was met and the goal ahead.
    @Test(arguments: Backend.available)
    func theWeeklyDigestEmailCarriesTheWeeksRealFigures(_ backend: Backend) async throws {
        try await FakeSMTP.withTestApp(backend) { app, smtp in
            // Saturday 28 February 2026, 00:00 UTC (01:00 in Paris)
            app.clock.set(Date(timeIntervalSince1970: 1_772_236_800))
            let first = try await app.onboardedUser("walker@example.com")
            let circle = try await app.request(
                .post,
                "/api/fitcircles",
                token: first,
                json: ["name": "Work Warriors", "metric": "steps"]
            ).decoded(as: Components.Schemas.FitCircle.self)
            let circleID = circle.id
            try await Self.post(
                app,
                first,
                ["sat-steps": ["type": "steps", "steps": 12_000], "sat-weight": ["type": "weight", "weightKg": 80.0]]
            )
            try await app.passTime(hours: 24)  // to Sunday 1 March, 01:00
            let token = try await app.devSignIn("walker@example.com").accessToken
            try await Self.post(
                app,
                token,
                ["sun-steps": ["type": "steps", "steps": 9_000], "sun-weight": ["type": "weight", "weightKg": 79.4]]
            )
            app.clock.advance(by: 11 * 3_600)  // Sunday 12:00 in Paris
            let claim = try await app.request(
                .post,
                "/api/fitcircles/\(circleID)/submit",
                token: try await app.devSignIn("walker@example.com").accessToken
            )
            #expect(claim.status == .created, "\(claim.text)")
            let checkIn = try await app.request(
                .post,
                "/api/streaks/checkin",
                token: try await app.devSignIn("walker@example.com").accessToken,
                json: ["mood": 4, "energy": 4]
            )
            #expect(checkIn.status == .created, "\(checkIn.text)")
            try await app.passTime(hours: 10)  // past Sunday 20:00 in Paris

            let digest = try #require(
                smtp.received.first { $0.subject.hasPrefix("Your Week in Review") },
                "\(smtp.received.map(\.subject))"
            )
            #expect(digest.subject == "Your Week in Review: 21,000 steps, 1-day streak 🔥")
            let text = try digest.part("text/plain")
            // Spec 000 F2: 50,000 a week while the daily goal is a default (a two-day-old account).
            #expect(text.contains("- Steps: 21,000 (42% of goal)"), "\(text)")
            #expect(
                text.contains("- Weight: -0.6 kg") && text.contains("- Leaderboard: #1 in \"Work Warriors\""),
                "\(text)"
            )
            #expect(text.contains("You hit your daily goal 2 out of 7 days."), "\(text)")
            #expect(text.contains("- Streak: 1 day maintained"), "a count's word agrees with it: \(text)")
            #expect(try digest.part("text/html").contains("Streak: 1 day maintained"))
            #expect(
                text.contains(
                    "Your weekly step goal is 50,000 steps.\n\nView Full Dashboard: \(FakeSMTP.publicURL)/api/emails/click/"
                ),
                "\(text)"
            )
            // An optional type: one-click unsubscribe (RFC 8058) in the headers and the footer.
            #expect(digest.headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click")
            let unsubscribe = try #require(digest.headers["List-Unsubscribe"])
            #expect(
                unsubscribe.hasPrefix("<\(FakeSMTP.publicURL)/api/emails/unsubscribe?token=")
                    && unsubscribe.contains("<mailto:unsubscribe@fitcircle.test?subject=")
            )
        }
    }
}

extension EmailDeliveryTests {
    /// Every email type of spec 000 goes out written from its own template with the data it was raised
    /// with: its subject, its figures in both parts, nothing left unrendered.
    @Test(arguments: Backend.available)
    func everyEmailTypeIsWrittenFromItsOwnTemplate(_ backend: Backend) async throws {
        try await FakeSMTP.withTestApp(backend) { app, smtp in
            _ = try await app.onboardedUser()
            try await app.runJobs()  // the welcome
            let cases: [(type: String, data: [String: String], subject: String, line: String)] = [
                (
                    "daily_checkin_email", ["streak": "14"], "Your 14-day streak is waiting ⏰",
                    "Your 14-day streak is waiting—it takes ten seconds."
                ),
                (
                    "daily_checkin_email", ["streak": "0"], "Start your streak today ⏰",
                    "Check in to start your streak—it takes ten seconds."
                ),
                (
                    "streak_at_risk", ["streak": "21", "freezesLeft": "1", "freeze": "left"],
                    "⚠️ Your 21-day streak is at risk!", "Good news: you have 1 freeze left this week."
                ),
                (
                    "streak_at_risk", ["streak": "21", "freezesLeft": "0", "freeze": "used"],
                    "⚠️ Your 21-day streak is at risk!",
                    "Good news: your freeze covered yesterday, so the streak is still alive."
                ),
                (
                    "monthly_report", ["month": "February 2026", "steps": "180,000", "checkIns": "25", "streak": "12"],
                    "Your February 2026 progress report 📈",
                    "- Check-ins: 25"
                ),
                (
                    "circle_invitation", ["inviter": "Ben", "circle": "Work Warriors", "invitationId": "inv-1"],
                    "Ben invited you to join \"Work Warriors\" on FitCircle",
                    "Ben invited you to join \"Work Warriors\""
                ),
                (
                    "challenge_milestone_email",
                    ["milestone": "Halfway there", "percent": "50", "challengeId": "ch-1"],
                    "🎉 Halfway there! You're 50% to your goal",
                    "You're 50% of the way to your goal."
                ),
            ]
            for (index, item) in cases.enumerated() {
                // A day each: the types allow one a day.
                app.clock.advance(by: 86_400)
                let token = try await app.operatorToken()
                let body: [String: Any] = [
                    "userId": try await app.devSignIn().user.id, "type": item.type, "data": item.data,
                    "dedupeKey": "t\(index)",
                ]
                let sent = try await app.request(.post, "/api/notifications/send", token: token, json: body)
                #expect(sent.status == .ok, "\(sent.text)")
                try await app.runJobs()
                let email = try #require(smtp.received.last { $0.rcptTos == ["ana@example.com"] })
                #expect(email.subject == item.subject, "\(item.type)")
                let (text, html) = (try email.part("text/plain"), try email.part("text/html"))
                #expect(text.contains(item.line) && text.hasPrefix("Hi Ana,"), "\(item.type): \(text)")
                #expect(html.contains("Hi Ana,") && !html.contains("{{") && !text.contains("{{"), "\(item.type)")
            }
        }
    }
}
