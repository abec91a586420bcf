import FitCircleClient
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

    init(_ app: TestApp, zone: String) {
        self.app = app
        self.zone = TimeZone(identifier: zone)!
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
        try await self.app.passTime(until: self.at(date, time), step: step)
    }

    /// The local time of an instant, "20:00".
    func localTime(_ instant: Date) -> String { LocalTime(instant, in: self.zone).description }

    /// The local date and time a notification was decided: "2026-03-02 20:00".
    func decided(_ notification: Components.Schemas.Notification?) -> String? {
        notification.map { self.decided(at: $0.decidedAt) }
    }

    /// The local date and time of an instant: "2026-03-02 20:00".
    func decided(at instant: Date) -> String { "\(LocalDate(instant, in: self.zone).iso) \(self.localTime(instant))" }
}

/// Someone using the app: signed in afresh for each call, as an app refreshes its tokens while days pass.
struct Member {
    let app: TestApp
    let email: String

    /// Signs up through dev sign-in and completes onboarding in `zone`, under `name` when given.
    static func onboarded(_ email: String, named name: String? = nil, in zone: String, app: TestApp) async throws
        -> Member
    {
        _ = try await app.onboardedUser(email, timeZone: zone, displayName: name)
        return Member(app: app, email: email)
    }

    var token: String {
        get async throws { try await self.app.devSignIn(self.email).accessToken }
    }

    /// The API as this member calls it, signed in afresh.
    var api: Client {
        get async throws { try await self.app.api(as: self.email) }
    }

    private func token(_ given: String?) async throws -> String {
        if let given { return given }
        return try await self.token
    }

    /// Records an activity of `type` now through `POST /api/activities` (signed in afresh unless given the
    /// `token` of a visit).
    func record(
        _ id: String,
        _ type: Components.Schemas.ActivityType,
        weightKg: Double? = nil,
        steps: Int? = nil,
        source: Components.Schemas.ActivitySource? = nil,
        token: String? = nil
    ) async throws {
        let input = Components.Schemas.ActivityInput(
            clientEventId: id,
            _type: type,
            occurredAt: self.app.clock.now,
            source: source ?? (type == .steps ? .healthkit : nil),
            steps: steps,
            weightKg: weightKg
        )
        switch try await self.app.api(try await self.token(token)).recordActivity(body: .json(input)) {
        case .created, .ok: break
        case let other: throw TestSetupError("recording answered \(other)")
        }
    }

    /// Syncs the day's step total from HealthKit.
    func sync(steps: Int, _ id: String, token: String? = nil) async throws {
        try await self.record(id, .steps, steps: steps, token: token)
    }

    /// Claims today's data to a circle (`POST /api/fitcircles/{id}/submit`).
    func claim(_ circle: String, token: String? = nil) async throws {
        switch try await self.app.api(try await self.token(token)).submitToFitCircle(path: .init(id: circle)) {
        case .created, .ok: break
        case let other: throw TestSetupError("the claim answered \(other)")
        }
    }
}

extension TestApp {
    /// The caller's notification decisions of one type, newest first (`GET /api/notifications/history`).
    func notifications(_ type: String, token: String) async throws -> [Components.Schemas.Notification] {
        try await self.api(token).getNotificationHistory(query: .init(limit: 100, _type: type)).ok.body.json.items
    }

    /// Checks in through `POST /api/streaks/checkin`.
    @discardableResult
    func checkIn(token: String, mood: Int = 4, energy: Int = 3) async throws -> Components.Schemas.CheckInResult {
        try await self.api(token).checkIn(body: .json(.init(mood: mood, energy: energy))).created.body.json
    }
}

extension TestApp {
    /// `GET` of `path`'s JSON object.
    func json(_ path: String, token: String) async throws -> [String: Any] {
        try await self.request(.get, path, token: token).jsonObject()
    }
}
