import FitCircleCore
import FitCircleEngine
import FitCircleJobs
import FitCircleTesting
import Foundation
import Logging

/// The world around a test app: time goes by in steps of 15 minutes, and at each step the zone scheduler
/// ticks and every job that is due runs, as on a server left running.
struct World {
    let app: TestApp
    let zone: TimeZone
    private let scheduler: ZoneScheduler
    private let runner: JobRunner

    init(_ app: TestApp, zone: String) {
        self.app = app
        self.zone = TimeZone(identifier: zone)!
        self.scheduler = ZoneScheduler(
            store: app.store,
            schedules: app.engine.jobs.schedules,
            clock: app.clock.wallClock,
            logger: Logger(label: "acceptance")
        )
        self.runner = JobRunner(
            store: app.store,
            handlers: app.engine.jobs.handlers,
            clock: app.clock.wallClock,
            logger: Logger(label: "acceptance")
        )
    }

    /// The instant of a local date and time in the world's zone: `at("2026-03-02", "20:00")`.
    func at(_ date: String, _ time: String) -> Date {
        LocalDate(iso: date)!.instant(at: LocalTime(time)!, in: self.zone)!
    }

    /// Sets the clock (nothing runs in between).
    func start(at date: String, _ time: String) {
        self.app.clock.set(self.at(date, time))
    }

    /// Lets time pass until the local `date` and `time`, running what falls due on the way (every quarter
    /// of an hour, or every `step` seconds for a long run that only needs the daily jobs to keep up: at
    /// most the scheduler's catch-up of 6 hours).
    func run(until date: String, _ time: String, step: TimeInterval = 900) async throws {
        let end = self.at(date, time)
        while self.app.clock.now < end {
            try await self.runDue()
            self.app.clock.advance(by: min(step, end.timeIntervalSince(self.app.clock.now)))
        }
        try await self.runDue()
    }

    private func runDue() async throws {
        _ = try await self.scheduler.tick()
        while try await self.runner.runDue(limit: 50) > 0 {}
    }

    /// The local time of an instant, "20:00".
    func localTime(_ instant: Date) -> String { LocalTime(instant, in: self.zone).description }

    /// The local date and time a notification was decided: "2026-03-02 20:00".
    func decided(_ notification: [String: Any]?) -> String? {
        guard
            let instant = (notification?["decidedAt"] as? String).flatMap({ try? Date.ISO8601FormatStyle().parse($0) })
        else { return nil }
        return "\(LocalDate(instant, in: self.zone).iso) \(self.localTime(instant))"
    }
}

/// Someone using the app: signed in afresh for each call, as an app refreshes its tokens while days pass.
struct Member {
    let app: TestApp
    let email: String

    /// Signs up through dev sign-in and completes onboarding in `zone`, under `name` when given.
    static func onboarded(_ email: String, named name: String? = nil, in zone: String, app: TestApp) async throws
        -> Member
    {
        let token = try await app.onboardedUser(email, timeZone: zone)
        if let name {
            var profile = TestApp.validProfile(timeZone: zone)
            profile["displayName"] = name
            let named = try await app.request(.put, "/api/user/profile", token: token, json: profile)
            guard named.status == .ok else { throw TestSetupError("naming answered \(named.status): \(named.text)") }
        }
        return Member(app: app, email: email)
    }

    var token: String {
        get async throws { try await self.app.devSignIn(self.email)["accessToken"] as! String }
    }

    private func token(_ given: String?) async throws -> String {
        if let given { return given }
        return try await self.token
    }

    /// Records an activity now through `POST /api/activities`: `fields` with the event id and the instant
    /// (signed in afresh unless given the `token` of a visit).
    func record(_ id: String, _ fields: [String: Any], token: String? = nil) async throws {
        let body = fields.merging([
            "clientEventId": id, "occurredAt": ISO8601DateFormatter().string(from: self.app.clock.now),
        ]) { given, _ in given }
        let recorded = try await self.app.request(
            .post,
            "/api/activities",
            token: try await self.token(token),
            json: body
        )
        guard recorded.status == .created || recorded.status == .ok else {
            throw TestSetupError("recording answered \(recorded.status): \(recorded.text)")
        }
    }

    /// Syncs the day's step total from HealthKit.
    func sync(steps: Int, _ id: String, token: String? = nil) async throws {
        try await self.record(id, ["type": "steps", "source": "healthkit", "steps": steps], token: token)
    }

    /// Claims today's data to a circle (`POST /api/fitcircles/{id}/submit`).
    func claim(_ circle: String, token: String? = nil) async throws {
        let claimed = try await self.app.request(
            .post,
            "/api/fitcircles/\(circle)/submit",
            token: try await self.token(token)
        )
        guard claimed.status == .created || claimed.status == .ok else {
            throw TestSetupError("the claim answered \(claimed.status): \(claimed.text)")
        }
    }
}

extension TestApp {
    /// The caller's notification decisions of one type, newest first (`GET /api/notifications/history`).
    func notifications(_ type: String, token: String) async throws -> [[String: Any]] {
        let response = try await self.request(.get, "/api/notifications/history?type=\(type)&limit=100", token: token)
        return try response.jsonObject()["items"] as? [[String: Any]] ?? []
    }

    /// Checks in through `POST /api/streaks/checkin`; answers the response's JSON.
    @discardableResult
    func checkIn(token: String, mood: Int = 4, energy: Int = 3) async throws -> [String: Any] {
        let response = try await self.request(
            .post,
            "/api/streaks/checkin",
            token: token,
            json: ["mood": mood, "energy": energy]
        )
        guard response.status == .created else {
            throw TestSetupError("check-in answered \(response.status): \(response.text)")
        }
        return try response.jsonObject()
    }

    /// `GET` of `path`'s JSON object.
    func json(_ path: String, token: String) async throws -> [String: Any] {
        try await self.request(.get, path, token: token).jsonObject()
    }
}
