import FitCircleTesting
import Foundation
import HTTPTypes
import Testing

/// Every operation of `openapi.yaml` × every kind of caller, with the answer the access policy must give.
/// An operation the document gains without a row here fails the test, so no endpoint ships unchecked.
struct AuthorizationMatrixTests {
    /// The owner's run of the world, as recorded and as edited.
    static func matrixRun(at now: String) -> [String: Any] {
        ["clientEventId": "matrix-run", "type": "workout", "occurredAt": now, "workout": ["type": "running", "durationSeconds": 600]]
    }

    /// What a caller may expect of an operation.
    enum Answer: Equatable, CustomStringConvertible {
        /// Let through: any answer but 401, 403, 404 and 5xx (a domain refusal such as 409 or 422 is the
        /// operation's own business, not access).
        case allowed
        case unauthenticated, forbidden, hidden

        func admits(_ status: Int) -> Bool {
            switch self {
            case .allowed: ![401, 403, 404].contains(status) && status < 500
            case .unauthenticated: status == 401
            case .forbidden: status == 403
            case .hidden: status == 404
            }
        }

        var description: String {
            switch self {
            case .allowed: "allowed"
            case .unauthenticated: "401"
            case .forbidden: "403"
            case .hidden: "404"
            }
        }
    }

    /// Who may call an operation.
    enum Rule {
        /// The same answer whoever calls (sign-in, links carrying their own token).
        case open
        /// Any signed-in caller, on their own data.
        case signedIn
        /// A resource of the owner's: others are told it does not exist.
        case ownerOnly
        case operatorOnly
        /// An explicit answer per caller (circles); `anonymous` is always 401.
        case per([Caller: Answer])

        /// The same rule, with other answers for some callers.
        func except(_ changes: [Caller: Answer]) -> Rule {
            .per(Dictionary(uniqueKeysWithValues: Caller.allCases.filter { $0 != .anonymous }.compactMap { caller in
                (changes[caller] ?? self.answer(for: caller)).map { (caller, $0) }
            }))
        }

        func answer(for caller: Caller) -> Answer? {
            if caller == .anonymous, case .open = self { return nil }
            if caller == .anonymous { return .unauthenticated }
            switch self {
            case .open: return nil
            case .signedIn: return .allowed
            case .ownerOnly: return caller == .owner ? .allowed : .hidden
            case .operatorOnly: return caller == .operator ? .allowed : .forbidden
            case .per(let answers): return answers[caller]
            }
        }
    }

    /// One operation's row: its rule, what to send, and whether an allowed call changes the world for the
    /// callers after it (then each allowed caller gets a fresh world).
    struct Row {
        var rule: Rule
        var query: String = ""
        var body: (@Sendable (World, Caller) -> Any)? = nil
        var destructive = false
    }

    // Circle answers, caller by caller (the private circle; the public one for `outsiderOfPublic`).
    // The blocked member and the blocker stay members of the circle they share with the owner: they read it
    // and take part, and only the owner's own things in it are hidden from them (their feed item, below).
    static let circleRead: Rule = .per([
        .owner: .allowed, .member: .allowed, .stranger: .hidden, .outsiderOfPublic: .allowed, .removed: .hidden,
        .invitee: .allowed, .operator: .allowed, .blocked: .allowed, .blocker: .allowed,
    ])
    static let circleParticipate: Rule = .per([
        .owner: .allowed, .member: .allowed, .stranger: .hidden, .outsiderOfPublic: .forbidden, .removed: .hidden,
        .invitee: .forbidden, .operator: .forbidden, .blocked: .allowed, .blocker: .allowed,
    ])
    static let circleManage: Rule = .per([
        .owner: .allowed, .member: .forbidden, .stranger: .hidden, .outsiderOfPublic: .forbidden, .removed: .hidden,
        .invitee: .forbidden, .operator: .forbidden, .blocked: .forbidden, .blocker: .forbidden,
    ])
    static let circleRefresh: Rule = .per([
        .owner: .forbidden, .member: .forbidden, .stranger: .hidden, .outsiderOfPublic: .forbidden, .removed: .hidden,
        .invitee: .forbidden, .operator: .allowed, .blocked: .forbidden, .blocker: .forbidden,
    ])
    static let circleJoin: Rule = .per([
        .owner: .allowed, .member: .allowed, .stranger: .allowed, .outsiderOfPublic: .allowed, .removed: .forbidden,
        .invitee: .allowed, .operator: .allowed, .blocked: .allowed, .blocker: .allowed,
    ])

    // The owner's private challenge (the member invited and joined); for `outsiderOfPublic`, their public
    // one, which anyone signed in may read and join — but not someone they blocked or who blocked them.
    static let challengeRead: Rule = .per([
        .owner: .allowed, .member: .allowed, .stranger: .hidden, .outsiderOfPublic: .allowed, .removed: .hidden, .invitee: .hidden,
        .operator: .allowed, .blocked: .hidden, .blocker: .hidden,
    ])

    /// About the owner as a person (their profile, badges, record, rivalry): anyone signed in but the one
    /// they blocked, to whom they do not exist. Who blocked them still sees them (their profile says
    /// `friendship: blocked`, and is where they lift the block): a block protects the one who made it.
    static let aboutOwner: Rule = Rule.signedIn.except([.blocked: .hidden])

    /// Allowed to one caller, who holds the edge the operation acts on; to everyone else there is none.
    static func onlyFor(_ holders: Set<Caller>) -> Rule {
        .per(Dictionary(uniqueKeysWithValues: Caller.allCases.filter { $0 != .anonymous }.map { ($0, holders.contains($0) ? Answer.allowed : .hidden) }))
    }

    static let rows: [String: Row] = [
        // Signing in and links that carry their own token.
        "signInWithGoogle": Row(rule: .open, body: { _, _ in ["idToken": "not-a-token"] }),
        "signInWithApple": Row(rule: .open, body: { _, _ in ["idToken": "not-a-token"] }),
        "signInForDevelopment": Row(rule: .open, body: { _, _ in ["email": "someone-new@example.com"] }),
        "refreshTokens": Row(rule: .open, body: { _, _ in ["refreshToken": "not-a-token"] }),
        "showEmailUnsubscribe": Row(rule: .open, query: "?token=not-a-token"),
        "unsubscribeFromEmails": Row(rule: .open, query: "?token=not-a-token"),
        "showEmailedInvitation": Row(rule: .open, query: "?token=not-a-token"),
        "emailOpened": Row(rule: .open),
        "emailLinkClicked": Row(rule: .open),
        // The caller's own account.
        "signOut": Row(rule: .signedIn, destructive: true),
        "deleteAccount": Row(rule: .signedIn, destructive: true),
        "exportAccount": Row(rule: .signedIn),
        "openMigration": Row(rule: .signedIn, body: { _, _ in ["expected": 10] }),
        "getMigration": Row(rule: .ownerOnly),
        "getConfig": Row(rule: .signedIn),
        "getProfile": Row(rule: .signedIn),
        "updateProfile": Row(rule: .signedIn, body: { _, _ in TestApp.validProfile() }),
        "uploadProfilePhoto": Row(rule: .signedIn),  // an empty body: 422 when let through
        "getProfilePhoto": Row(rule: .signedIn),
        "recordActivity": Row(rule: .signedIn, body: { world, caller in
            ["clientEventId": "matrix-\(caller)", "type": "app_open", "occurredAt": world.now]
        }),
        "listActivities": Row(rule: .signedIn),
        // The owner's run, edited: another caller has no activity of that client id (404).
        "editActivity": Row(rule: .ownerOnly, body: { world, _ in ["modifiedAt": world.now, "activity": Self.matrixRun(at: world.now)] }),
        "recordActivityBatch": Row(rule: .signedIn, body: { world, caller in
            ["events": [["clientEventId": "matrix-batch-\(caller)", "type": "app_open", "occurredAt": world.now]]]
        }),
        "syncDailyTotals": Row(rule: .signedIn, body: { world, caller in ["steps": 1200, "source": "healthkit", "occurredAt": world.now] }),
        "listDailyTotals": Row(rule: .signedIn),
        "getUserStats": Row(rule: .signedIn),
        "checkIn": Row(rule: .signedIn, body: { _, _ in [:] }),
        "getCurrentStreak": Row(rule: .signedIn),
        "freezeStreak": Row(rule: .signedIn, body: { _, _ in [:] }),
        "getStreakHistory": Row(rule: .signedIn),
        "getStreakMilestones": Row(rule: .signedIn),
        "getDailyGoals": Row(rule: .signedIn),
        "generateDailyGoals": Row(rule: .signedIn),
        "getDailyGoalHistory": Row(rule: .signedIn),
        "getWeeklyGoals": Row(rule: .signedIn),
        "generateWeeklyGoals": Row(rule: .signedIn),
        "getWeeklyGoalHistory": Row(rule: .signedIn),
        "getTeamWeeks": Row(rule: .signedIn),
        "getWeeklySummary": Row(rule: .signedIn),
        "chooseWeeklyGoal": Row(rule: .signedIn, body: { _, _ in ["choice": "maintain"] }),
        "assessTraining": Row(rule: .signedIn, body: { _, _ in ["level": "beginner", "capacity": 12, "workoutDaysPerWeek": 3] }),
        "confirmTraining": Row(rule: .signedIn, body: { _, _ in ["skipped": true] }),
        "getTrainingSettings": Row(rule: .signedIn),
        "updateTrainingSettings": Row(rule: .signedIn, body: { _, _ in
            ["level": "beginner", "capacity": 12, "workoutDaysPerWeek": 3, "dailyGoal": 30, "startingSeries": 2, "recoverySeconds": 60]
        }),
        "getPointsLedger": Row(rule: .signedIn),
        "getDailyPoints": Row(rule: .signedIn),
        "getBadges": Row(rule: .signedIn),
        "updateBadgeShowcase": Row(rule: .signedIn, body: { _, _ in ["badgeIds": []] }),
        "getEmailPreferences": Row(rule: .signedIn),
        "updateEmailPreferences": Row(rule: .signedIn, body: { _, _ in ["weeklySummary": true] }),
        "getNotificationPreferences": Row(rule: .signedIn),
        "updateNotificationPreferences": Row(rule: .signedIn, body: { _, _ in ["enabled": true] }),
        "registerDevice": Row(rule: .signedIn, body: { _, caller in ["platform": "android", "token": "device-\(caller)"] }),
        "getNotificationInbox": Row(rule: .signedIn),
        "streamNotificationInbox": Row(rule: .signedIn, query: "?seconds=1"),
        "streamFriendFeed": Row(rule: .signedIn, query: "?seconds=1"),
        "getNotificationHistory": Row(rule: .signedIn),
        "listFitCircles": Row(rule: .signedIn),
        "createFitCircle": Row(rule: .signedIn, body: { _, _ in ["name": "Another", "metric": "steps"] }),
        "submitToAllFitCircles": Row(rule: .signedIn),
        "getPendingSubmissions": Row(rule: .signedIn),
        // The owner's photo is for their friends (the member); badges are public to anyone signed in.
        "getUserPhoto": Row(rule: .per([
            .owner: .allowed, .member: .allowed, .stranger: .hidden, .outsiderOfPublic: .hidden, .removed: .hidden,
            .invitee: .hidden, .operator: .hidden, .blocked: .hidden, .blocker: .hidden,
        ])),
        "getUserBadges": Row(rule: Self.aboutOwner),
        // Friends: every caller acts on their own edges with the member (see `World`).
        "listFriends": Row(rule: .signedIn),
        "listFriendRequests": Row(rule: .signedIn),
        "listNewContent": Row(rule: .signedIn),
        "recordEvents": Row(rule: .signedIn, body: { world, _ in
            ["events": [["clientEventId": "matrix", "name": "screen_viewed", "occurredAt": world.now, "properties": ["screen": "home"]]]]
        }),
        // The owner's private challenge: the member (their friend) invited and joined, the rest never asked.
        "createCompetition": Row(rule: .signedIn, body: { _, _ in ["name": "Matrix", "type": "distance", "durationDays": 3] }),
        "listCompetitions": Row(rule: .signedIn),
        "listCompetitionTemplates": Row(rule: .signedIn),
        "getChallengeRecord": Row(rule: Self.aboutOwner),
        "getRivalry": Row(rule: Self.aboutOwner),
        "listRivals": Row(rule: .signedIn),
        "getCompetition": Row(rule: Self.challengeRead),
        "getCompetitionLeaderboard": Row(rule: Self.challengeRead),
        "streamCompetition": Row(rule: Self.challengeRead, query: "?seconds=1"),
        "joinCompetition": Row(rule: .per([
            .owner: .allowed, .member: .allowed, .stranger: .hidden, .outsiderOfPublic: .allowed, .removed: .hidden, .invitee: .hidden,
            .operator: .forbidden, .blocked: .hidden, .blocker: .hidden,
        ]), body: { _, _ in [:] }, destructive: true),
        "declineCompetition": Row(rule: .per([
            .owner: .forbidden, .member: .forbidden, .stranger: .hidden, .outsiderOfPublic: .forbidden, .removed: .hidden, .invitee: .hidden,
            .operator: .forbidden, .blocked: .hidden, .blocker: .hidden,
        ])),
        "leaveCompetition": Row(rule: .per([
            .owner: .allowed, .member: .allowed, .stranger: .hidden, .outsiderOfPublic: .forbidden, .removed: .hidden, .invitee: .hidden,
            .operator: .forbidden, .blocked: .hidden, .blocker: .hidden,
        ]), destructive: true),
        "markContentSeen": Row(rule: .signedIn),
        "publishWeeklyContent": Row(rule: .operatorOnly),
        "getMetrics": Row(rule: .operatorOnly),
        "createExperiment": Row(rule: .operatorOnly, body: { _, _ in ["name": UUID().uuidString.lowercased(), "variants": [["name": "a"], ["name": "b"]]] }),
        "listExperiments": Row(rule: .operatorOnly),
        "getExperiment": Row(rule: .operatorOnly),
        "changeExperiment": Row(rule: .operatorOnly, body: { _, _ in ["rolloutPercent": 50] }),
        "getExperimentResults": Row(rule: .operatorOnly),
        "registerWebhook": Row(rule: .operatorOnly, body: { _, _ in ["url": "http://127.0.0.1:9/spare", "events": ["level_up"]] }),
        "listWebhooks": Row(rule: .operatorOnly),
        "deleteWebhook": Row(rule: .operatorOnly, destructive: true),
        "listWebhookDeliveries": Row(rule: .operatorOnly),
        "replayWebhookDelivery": Row(rule: .operatorOnly),
        "findAccounts": Row(rule: .operatorOnly, query: "?q=someone"),
        "getAccountFile": Row(rule: .operatorOnly),
        "listJobs": Row(rule: .operatorOnly),
        "retryJob": Row(rule: .operatorOnly),
        "listDeliveries": Row(rule: .operatorOnly),
        "getActiveProfile": Row(rule: .operatorOnly),
        "listAllCircles": Row(rule: .operatorOnly),
        "listAllCompetitions": Row(rule: .operatorOnly),
        "listBlockedUsers": Row(rule: .signedIn),
        "searchUsers": Row(rule: .signedIn, query: "?q=someone"),
        "blockUser": Row(rule: .signedIn, body: { world, _ in ["userId": world.ids[.member]!] }, destructive: true),
        // Nobody befriends themself; the operator blocked the member; the owner is their friend already.
        "requestFriend": Row(rule: .per([
            .owner: .allowed, .member: .forbidden, .stranger: .allowed, .outsiderOfPublic: .allowed, .removed: .allowed,
            .invitee: .allowed, .operator: .forbidden, .blocked: .allowed, .blocker: .allowed,
        ]), body: { world, _ in ["userId": world.ids[.member]!] }, destructive: true),
        // Only the one asked answers a request; only the one who asked withdraws it.
        "acceptFriendRequest": Row(rule: Self.onlyFor([.member]), body: { world, _ in ["userId": world.ids[.invitee]!] }, destructive: true),
        "declineFriendRequest": Row(rule: Self.onlyFor([.member]), body: { world, _ in ["userId": world.ids[.invitee]!] }, destructive: true),
        "cancelFriendRequest": Row(rule: Self.onlyFor([.invitee]), destructive: true),
        "removeFriend": Row(rule: Self.onlyFor([.owner]), destructive: true),
        "unblockUser": Row(rule: Self.onlyFor([.operator]), destructive: true),
        "getFriendFeed": Row(rule: .signedIn),
        "getUserProfile": Row(rule: Self.aboutOwner),
        // The owner's app-open event: the owner and their friend (the member) may see it, so reacting is
        // the operation's own business (409: only workouts take reactions); to anyone else it does not exist.
        "addReaction": Row(rule: Self.onlyFor([.owner, .member]), body: { _, _ in ["reaction": "🔥"] }),
        "removeReaction": Row(rule: Self.onlyFor([.owner, .member])),
        "setActivityVisibility": Row(rule: .ownerOnly, body: { _, _ in ["visibility": "friends"] }),
        // The owner's own resources, named by id.
        "getActivity": Row(rule: .ownerOnly),
        "deleteActivity": Row(rule: .ownerOnly, destructive: true),
        "updateDailyGoalProgress": Row(rule: .ownerOnly, body: { _, _ in ["value": 100] }),
        "deactivateDevice": Row(rule: .ownerOnly, destructive: true),
        "getNotificationWhy": Row(rule: .ownerOnly),
        "markNotification": Row(rule: .ownerOnly),
        // Operators.
        "sendNotification": Row(rule: .operatorOnly, body: { world, _ in ["userId": world.ids[.owner]!, "type": "welcome", "dedupeKey": UUID().uuidString] }),
        "refreshFitCircleLeaderboard": Row(rule: circleRefresh),
        // Circles.
        "joinFitCircle": Row(rule: circleJoin, body: { world, caller in ["code": world.code(for: caller)] }, destructive: true),
        "getFitCircle": Row(rule: circleRead),
        "listFitCircleMembers": Row(rule: circleRead),
        "getFitCircleLeaderboard": Row(rule: circleRead),
        "getFitCircleMemberStandings": Row(rule: circleRead),
        "getFitCircleLeaderboardHistory": Row(rule: circleRead),
        "getFitCircleFeed": Row(rule: circleRead),
        "getFitCircleSubmissionsToday": Row(rule: circleRead),
        "submitToFitCircle": Row(rule: circleParticipate),
        // The owner's item: to the one they blocked it does not exist; who blocked them is told so.
        "encourageFeedItem": Row(rule: Self.circleParticipate.except([.blocked: .hidden, .blocker: .forbidden]), body: { _, _ in [:] }),
        "encourageFitCircleMember": Row(rule: circleParticipate, body: { _, _ in [:] }),
        "streamFitCircle": Row(rule: circleParticipate, query: "?seconds=1"),
        "leaveFitCircle": Row(rule: circleParticipate, destructive: true),
        "updateFitCircle": Row(rule: circleManage, body: { _, _ in ["name": "Renamed", "metric": "steps"] }),
        "inviteToFitCircle": Row(rule: circleManage, body: { _, caller in ["email": "invited-by-\(caller)@example.com"] }),
        "listFitCircleInvitations": Row(rule: circleManage),
        "revokeFitCircleInvitation": Row(rule: circleManage, destructive: true),
        "rotateFitCircleCode": Row(rule: circleManage, destructive: true),
        "listFitCircleBans": Row(rule: circleManage),
        "liftFitCircleBan": Row(rule: circleManage, destructive: true),
        "removeFitCircleMember": Row(rule: circleManage, destructive: true),
        "setFitCircleRole": Row(rule: circleManage, body: { _, _ in ["role": "admin"] }, destructive: true),
        "archiveFitCircle": Row(rule: circleManage, destructive: true),
    ]

    /// An operation of the document.
    struct Operation: CustomStringConvertible {
        var id: String
        var method: HTTPRequest.Method
        var path: String
        var description: String { "\(self.id) (\(self.method) \(self.path))" }
    }

    static func operations() throws -> [Operation] {
        let document = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/FitCircleAPI/openapi.yaml")
        var (operations, path, method) = ([Operation](), "", "")
        for line in try String(contentsOf: document, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("  /"), line.hasSuffix(":"), !line.hasPrefix("   ") {
                path = String(line.dropFirst(2).dropLast())
            } else if line.hasPrefix("    "), !line.hasPrefix("     "), ["get:", "put:", "post:", "delete:", "patch:"].contains(line.dropFirst(4)) {
                method = String(line.dropFirst(4).dropLast())
            } else if line.hasPrefix("      operationId: "), !path.isEmpty {
                operations.append(Operation(id: String(line.dropFirst(19)), method: HTTPRequest.Method(method.uppercased())!, path: path))
            } else if line.hasPrefix("components:") {
                break
            }
        }
        return operations
    }

    /// The operation's path with the world's ids for `caller`.
    static func uri(_ operation: Operation, _ row: Row, in world: World, for caller: Caller) -> String {
        let circle = world.circle(for: caller)
        var path = operation.path
        let personal: String? =
            switch operation.path {
            case _ where path.hasPrefix("/api/fitcircles/{id}"): circle
            case _ where path.hasPrefix("/api/competitions/{id}"): world.challenge(for: caller)
            case _ where path.hasPrefix("/api/activities/{id}"): world.activity
            case _ where path.hasPrefix("/api/goals/daily/{id}"): world.goal
            case _ where path.hasPrefix("/api/notifications/devices/{id}"): world.device
            case _ where path.hasPrefix("/api/notifications/{id}"): world.notification
            case _ where path.hasPrefix("/api/user/migrations/{id}"): world.migration
            case _ where path.hasPrefix("/api/users/{id}"): world.ids[.owner]
            case _ where path.hasPrefix("/api/admin/experiments/{id}"): world.experiment
            case _ where path.hasPrefix("/api/admin/users/{id}"): world.ids[.owner]
            case _ where path.hasPrefix("/api/admin/jobs/{id}"): world.job
            case _ where operation.id == "deleteWebhook": world.spareWebhook
            case _ where path.hasPrefix("/api/admin/webhooks/{id}"): world.webhook
            default: nil
            }
        if let personal { path = path.replacingOccurrences(of: "{id}", with: personal) }
        let target = operation.id == "liftFitCircleBan" ? world.ids[.removed]! : world.ids[.member]!
        path = path.replacingOccurrences(of: "{userId}", with: target)
            .replacingOccurrences(of: "{invitationId}", with: world.invitation)
            .replacingOccurrences(of: "{itemId}", with: world.feedItem)
            .replacingOccurrences(of: "{event}", with: "read")
            .replacingOccurrences(of: "{reaction}", with: "%F0%9F%94%A5")
            .replacingOccurrences(of: "{token}", with: "not-a-token")
            .replacingOccurrences(of: "{key}", with: "matrix")
            .replacingOccurrences(of: "{week}", with: world.week)
            .replacingOccurrences(of: "{deliveryId}", with: world.webhookDelivery)
        return path + row.query
    }

    @Test(arguments: Backend.available)
    func everyOperationAnswersEveryCallerAsThePolicySays(_ backend: Backend) async throws {
        let operations = try Self.operations()
        let unlisted = operations.filter { Self.rows[$0.id] == nil }
        #expect(unlisted.isEmpty, "operations without a row in the matrix: \(unlisted)")
        let stale = Set(Self.rows.keys).subtracting(operations.map(\.id))
        #expect(stale.isEmpty, "rows for operations the document no longer has: \(stale.sorted())")

        try await withTestApp(backend) { app in
            let shared = try await World.make(app)
            var (cells, unexpected) = (0, [String]())
            for operation in operations {
                guard let row = Self.rows[operation.id] else { continue }
                var answers: [Caller: Int] = [:]
                // Refused callers first: they must change nothing, so the world stays as it was.
                let ordered = Caller.allCases.sorted { (row.rule.answer(for: $0) == .allowed ? 1 : 0) < (row.rule.answer(for: $1) == .allowed ? 1 : 0) }
                for caller in ordered {
                    let expected = row.rule.answer(for: caller)
                    let world = expected == .allowed && row.destructive ? try await World.make(app) : shared
                    let response = try await app.request(
                        operation.method, Self.uri(operation, row, in: world, for: caller), token: world.tokens[caller],
                        json: row.body?(world, caller))
                    let status = Int(response.status.code)
                    answers[caller] = status
                    cells += 1
                    if let expected, !expected.admits(status) {
                        unexpected.append("\(operation.id) as \(caller): expected \(expected), got \(status) \(response.text.prefix(160))")
                    }
                }
                if case .open = row.rule, Set(answers.values).count > 1 {
                    unexpected.append("\(operation.id) answers differently by caller: \(answers)")
                }
            }
            #expect(unexpected.isEmpty, "\(unexpected.count) unexpected answers:\n\(unexpected.joined(separator: "\n"))")
            #expect(cells == operations.count * Caller.allCases.count)
            print("authorisation matrix (\(backend)): \(operations.count) operations × \(Caller.allCases.count) callers = \(cells) answers, \(unexpected.count) unexpected")
        }
    }
}
