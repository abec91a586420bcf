import FitCircleAPI
import FitCircleCore
import FitCircleStore
import FitCircleTesting
import Foundation
import Testing

/// Who calls, in the authorisation matrix. Each caller but `anonymous` is an onboarded account of its own.
enum Caller: String, CaseIterable, Sendable {
    case anonymous
    /// Owns both circles and every personal resource the matrix names (activity, goal, device, notification).
    case owner
    /// A member of both circles.
    case member
    /// Another user: in no circle, invited nowhere; for circles, a non-member of the private one.
    case stranger
    /// A non-member of the public circle and of the owner's public challenge, not invited to either (the
    /// circle and the challenge named for this caller are the public ones).
    case outsiderOfPublic
    /// Was a member of both circles and was removed (banned) from them.
    case removed
    /// Invited to the private circle, not yet a member.
    case invitee
    /// A member of both circles whom the owner blocked.
    case blocked
    /// A member of both circles who blocked the owner.
    case blocker
    /// An operator (`fitcircle operator grant`), member of nothing.
    case `operator`
}

/// Everything the matrix's requests refer to: two circles of the owner (one private, one public), the
/// owner's personal resources, and one account per caller.
struct World: Sendable {
    var tokens: [Caller: String] = [:]
    var ids: [Caller: String] = [:]
    var privateCircle = "", privateCode = ""
    var publicCircle = "", publicCode = ""
    var invitation = ""
    var week = ""
    var feedItem = ""
    var activity = "", run = "", goal = "", device = "", notification = "", migration = "", challenge = "",
        publicChallenge = "", experiment = "", webhook = "", webhookDelivery = "", spareWebhook = "", job = ""
    /// The test clock's now, as requests give instants.
    var now = ""

    /// The circle a caller's circle requests name: the public one for `outsiderOfPublic`, else the private one.
    func circle(for caller: Caller) -> String { caller == .outsiderOfPublic ? self.publicCircle : self.privateCircle }
    func code(for caller: Caller) -> String { caller == .outsiderOfPublic ? self.publicCode : self.privateCode }
    /// The challenge a caller's challenge requests name: the public one for `outsiderOfPublic`, else the private one.
    func challenge(for caller: Caller) -> String { caller == .outsiderOfPublic ? self.publicChallenge : self.challenge }

    static func make(_ app: TestApp) async throws -> World {
        var world = World()
        world.now = ISO8601DateFormatter().string(from: app.clock.now)
        let yesterday = LocalDate(app.clock.now, in: TimeZone(identifier: "Europe/Paris")!).adding(days: -1).description
        // People of their own for every world: invitations are capped per recipient a day.
        let tag = UUID().uuidString.prefix(8).lowercased()
        for caller in Caller.allCases where caller != .anonymous {
            let email = "\(caller.rawValue.lowercased())-\(tag)@example.com"
            world.tokens[caller] = try await app.onboardedUser(email)
            world.ids[caller] = try await app.devSignIn(email).user.id
            let photo = try await app.request(
                .post,
                "/api/user/profile/photo",
                token: world.tokens[caller],
                body: Data(TestImages.png(withText: nil)),
                headers: [.contentType: "application/octet-stream"]
            )
            try #require(photo.status == .ok, "photo: \(photo.text)")
            // Yesterday claimed within the grace window: a streak for today's freeze to protect, today open
            // for a check-in.
            let claimed = try await app.request(
                .post,
                "/api/streaks/checkin",
                token: world.tokens[caller],
                json: ["mood": 4, "energy": 3, "date": yesterday]
            )
            try #require(claimed.status == .created, "yesterday's check-in: \(claimed.text)")
        }
        let operatorID = try #require(world.ids[.operator])
        try await app.store.transaction { tx in try await tx.users.setRole(.operator, of: User.ID(operatorID)) }
        let owner = try #require(world.tokens[.owner])
        // The owner shows their photo to friends only (the member is one), so its row tells the audiences apart.
        var profile = TestApp.validProfile()
        profile["visibility"] = ["age": "friends", "weight": "only_me", "height": "friends", "photo": "friends"]
        try #require(try await app.request(.put, "/api/user/profile", token: owner, json: profile).status == .ok)

        func create(_ privacy: String) async throws -> (String, String) {
            let created = try await app.request(
                .post,
                "/api/fitcircles",
                token: owner,
                json: ["name": "Circle \(privacy)", "metric": "steps", "privacy": privacy]
            ).decoded(as: Components.Schemas.FitCircle.self)
            return (created.id, try #require(created.joinCode))
        }
        (world.privateCircle, world.privateCode) = try await create("private")
        (world.publicCircle, world.publicCode) = try await create("public")
        for code in [world.privateCode, world.publicCode] {
            for caller in [Caller.member, .removed, .blocked, .blocker] {
                let joined = try await app.request(
                    .post,
                    "/api/fitcircles/join",
                    token: world.tokens[caller],
                    json: ["code": code]
                )
                try #require(joined.status == .ok, "\(caller) joins: \(joined.text)")
            }
        }
        for circle in [world.privateCircle, world.publicCircle] {
            let removal = try await app.request(
                .delete,
                "/api/fitcircles/\(circle)/members/\(world.ids[.removed]!)",
                token: owner
            )
            try #require(removal.status == .noContent, "removal: \(removal.text)")
        }
        // Removal rotated the codes.
        for circle in [world.privateCircle, world.publicCircle] {
            let read = try await app.request(.get, "/api/fitcircles/\(circle)", token: owner)
            let code = try #require(try read.decoded(as: Components.Schemas.FitCircle.self).joinCode)
            if circle == world.privateCircle { world.privateCode = code } else { world.publicCode = code }
        }
        let invited = try await app.request(
            .post,
            "/api/fitcircles/\(world.privateCircle)/invite",
            token: owner,
            json: ["userId": world.ids[.invitee]!]
        )
        world.invitation = try invited.decoded(as: Components.Schemas.CircleInvitation.self).id

        // Friend edges, all about the member: the owner is their friend, the invitee asked them, the operator
        // blocked them.
        let member = try #require(world.ids[.member])
        for (caller, path) in [
            (Caller.owner, "/api/friends/request"), (.invitee, "/api/friends/request"),
            (.operator, "/api/friends/blocks"),
        ] {
            let sent = try await app.request(.post, path, token: world.tokens[caller], json: ["userId": member])
            try #require(sent.status == .ok || sent.status == .noContent, "\(caller) \(path): \(sent.text)")
        }
        let accepted = try await app.request(
            .post,
            "/api/friends/accept",
            token: world.tokens[.member],
            json: ["userId": world.ids[.owner]!]
        )
        try #require(accepted.status == .noContent, "accept: \(accepted.text)")
        // Blocks both ways around the owner: they blocked one member, another member blocked them.
        for (caller, target) in [(Caller.owner, Caller.blocked), (.blocker, .owner)] {
            let blocked = try await app.request(
                .post,
                "/api/friends/blocks",
                token: world.tokens[caller],
                json: ["userId": world.ids[target]!]
            )
            try #require(blocked.status == .noContent, "\(caller) blocks \(target): \(blocked.text)")
        }

        let submitted = try await app.request(.post, "/api/fitcircles/\(world.privateCircle)/submit", token: owner)
        try #require(submitted.status == .created || submitted.status == .ok, "submit: \(submitted.text)")
        let feed = try await app.request(.get, "/api/fitcircles/\(world.privateCircle)/feed", token: owner)
        world.feedItem = try #require(
            try feed.decoded(as: Components.Schemas.CircleFeed.self).items.first { $0.actorId == world.ids[.owner] }?
                .id,
            "the owner's feed item: \(feed.text)"
        )

        let activity = try await app.request(
            .post,
            "/api/activities",
            token: owner,
            json: ["clientEventId": "matrix-1", "type": "app_open", "occurredAt": world.now]
        )
        world.activity = try activity.decoded(as: Components.Schemas.Activity.self).id
        let run = try await app.request(
            .post,
            "/api/activities",
            token: owner,
            json: AuthorizationMatrixTests.matrixRun(at: world.now)
        )
        try #require(run.status == .created, "a run: \(run.text)")
        world.run = try run.decoded(as: Components.Schemas.Activity.self).id
        // The run reaches the friends' feeds by the job that follows it.
        try await app.runJobs()
        // A goal whose progress is reported (a check-in goal is met by checking in).
        let goals = try await app.request(.post, "/api/goals/daily/generate", token: owner)
        world.goal = try #require(
            try goals.decoded(as: Components.Schemas.GoalPeriod.self).goals.first { $0._type != .checkIn }?.id,
            "a daily goal: \(goals.text)"
        )
        let device = try await app.request(
            .post,
            "/api/notifications/register",
            token: owner,
            json: ["platform": "android", "token": "matrix-device"]
        )
        world.device = try device.decoded(as: Components.Schemas.PushDevice.self).id
        let sent = try await app.request(
            .post,
            "/api/notifications/send",
            token: world.tokens[.operator],
            json: ["userId": world.ids[.owner]!, "type": "welcome"]
        )
        try #require(sent.status == .ok || sent.status == .created || sent.status == .accepted, "send: \(sent.text)")
        let history = try await app.request(.get, "/api/notifications/history", token: owner)
        world.notification = try #require(
            try history.decoded(as: Components.Schemas.NotificationList.self).items.first?.id,
            "a notification: \(sent.text) \(history.text)"
        )
        let migration = try await app.request(.post, "/api/user/migrations", token: owner, json: ["expected": 1])
        world.migration = try migration.decoded(as: Components.Schemas.MigrationSession.self).id
        // A webhook endpoint nobody listens at, and a delivery of the owner's challenge below to it.
        // Worlds share the app's endpoints (at most 50): the first world's is reused.
        let hooks = try await app.request(.get, "/api/admin/webhooks", token: world.tokens[.operator])
            .decoded(as: Operations.ListWebhooks.Output.Ok.Body.JsonPayload.self).webhooks
        if let existing = hooks.first(where: { $0.url == "http://127.0.0.1:9/matrix" }) {
            world.webhook = existing.id
        } else {
            let webhook = try await app.request(
                .post,
                "/api/admin/webhooks",
                token: world.tokens[.operator],
                json: ["url": "http://127.0.0.1:9/matrix", "events": ["challenge_created"]]
            )
            world.webhook = try webhook.decoded(as: Components.Schemas.WebhookEndpoint.self).id
        }
        // One more for removing: this world's own, the earlier worlds' gone (endpoints are capped at 50).
        for hook in hooks where hook.url == "http://127.0.0.1:9/spare" {
            _ = try await app.request(
                .delete,
                "/api/admin/webhooks/\(hook.id)",
                token: world.tokens[.operator]
            )
        }
        let spare = try await app.request(
            .post,
            "/api/admin/webhooks",
            token: world.tokens[.operator],
            json: ["url": "http://127.0.0.1:9/spare", "events": ["level_up"]]
        )
        world.spareWebhook = try spare.decoded(as: Components.Schemas.WebhookEndpoint.self).id
        let challenge = try await app.request(
            .post,
            "/api/competitions",
            token: owner,
            json: [
                "name": "Matrix", "type": "distance", "durationDays": 7,
                "startsAt": ISO8601DateFormatter().string(from: app.clock.now.addingTimeInterval(86_400)),
                "invitees": [member],
            ]
        )
        world.challenge = try challenge.decoded(as: Components.Schemas.Competition.self).id
        let open = try await app.request(
            .post,
            "/api/competitions",
            token: owner,
            json: [
                "name": "Open matrix", "type": "distance", "durationDays": 7, "visibility": "public",
                "startsAt": ISO8601DateFormatter().string(from: app.clock.now.addingTimeInterval(86_400)),
            ]
        )
        world.publicChallenge = try open.decoded(as: Components.Schemas.Competition.self).id
        let joinedChallenge = try await app.request(
            .post,
            "/api/competitions/\(world.challenge)/join",
            token: world.tokens[.member],
            json: [:]
        )
        try #require(joinedChallenge.status == .ok, "join: \(joinedChallenge.text)")
        // This week's content, for marking it seen (every caller's week: the clock stands on a Monday noon).
        world.week = IsoWeek(containing: LocalDate(app.clock.now, in: .gmt)).description
        let published = try await app.request(
            .put,
            "/api/content/weekly/matrix/\(world.week)",
            token: world.tokens[.operator]
        )
        try #require(published.status == .ok, "publish: \(published.text)")
        let experiment = try await app.request(
            .post,
            "/api/admin/experiments",
            token: world.tokens[.operator],
            json: ["name": "matrix-\(tag)", "variants": [["name": "a"], ["name": "b"]]]
        )
        world.experiment = try experiment.decoded(as: Components.Schemas.Experiment.self).id
        let log = try await app.request(
            .get,
            "/api/admin/webhooks/\(world.webhook)/deliveries?limit=500",
            token: world.tokens[.operator]
        )
        world.webhookDelivery = try #require(
            try log.decoded(as: Operations.ListWebhookDeliveries.Output.Ok.Body.JsonPayload.self).items.first {
                $0.userId == world.ids[.owner]
            }?.id,
            "a delivery: \(log.text)"
        )
        // It failed (a replay is of a delivery that is over).
        let delivery = WebhookDelivery.ID(world.webhookDelivery)
        try await app.store.transaction { tx in
            try await tx.webhooks.record(
                delivery,
                status: .failed,
                httpStatus: 400,
                error: "refused",
                at: app.clock.now
            )
        }
        // A job that failed for good, for an operator to retry.
        let doomed = JobRecord(
            id: UUID().uuidString.lowercased(),
            kind: "matrix",
            payload: "{}",
            dedupeKey: "matrix-\(tag)",
            runAt: app.clock.now,
            maxAttempts: 1
        )
        world.job = doomed.id
        try await app.store.transaction { tx in
            _ = try await tx.enqueue([doomed], at: app.clock.now)
            let claimed = try await tx.jobs.claim(
                kinds: ["matrix"],
                limit: 10,
                owner: "matrix",
                leaseUntil: app.clock.now.addingTimeInterval(60),
                now: app.clock.now
            )
            try #require(claimed.map(\.id).contains(doomed.id))
            for job in claimed {
                try await tx.jobs.fail(job.id, owner: "matrix", error: "refused", retryAt: nil, at: app.clock.now)
            }
        }
        return world
    }
}
