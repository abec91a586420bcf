import FitCircleTesting
import Foundation
import HTTPTypes
import Testing

/// Every operation of `openapi.yaml` × every kind of caller, with the answer the access policy must give.
/// An operation the document gains without a row here fails the test, so no endpoint ships unchecked.
struct AuthorizationMatrixTests {
    /// The owner's run of the world, as recorded and as edited.
    static func matrixRun(at now: String) -> [String: Any] {
        [
            "clientEventId": "matrix-run", "type": "workout", "occurredAt": now,
            "workout": ["type": "running", "durationSeconds": 600],
        ]
    }

    /// What a caller may expect of an operation.
    enum Answer: Equatable, CustomStringConvertible {
        /// Let through, and answered with the operation's success status (the row's `success`): the world
        /// is one in which every allowed call can succeed, so a domain refusal (409, 422) is a failure too.
        case allowed
        /// Let through, and answered with exactly this status: another success than the row's (a replay),
        /// or the operation's own refusal where the world makes it the right answer (joining a circle one
        /// is in, blocking oneself).
        case answered(Int)
        case unauthenticated, forbidden, hidden

        var description: String {
            switch self {
            case .allowed: "allowed"
            case .answered(let status): "\(status)"
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
            .per(
                Dictionary(
                    uniqueKeysWithValues: Caller.allCases.filter { $0 != .anonymous }.compactMap { caller in
                        (changes[caller] ?? self.answer(for: caller)).map { (caller, $0) }
                    }
                )
            )
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
        /// The status an allowed caller gets.
        var success = 200
        /// Sends an image (`image/png`) instead of `body`.
        var image = false

        /// The status `answer` means for this operation.
        func status(for answer: Answer) -> Int {
            switch answer {
            case .allowed: self.success
            case .answered(let status): status
            case .unauthenticated: 401
            case .forbidden: 403
            case .hidden: 404
            }
        }
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
        .owner: .allowed, .member: .allowed, .stranger: .hidden, .outsiderOfPublic: .allowed, .removed: .hidden,
        .invitee: .hidden,
        .operator: .allowed, .blocked: .hidden, .blocker: .hidden,
    ])

    /// About the owner as a person (their profile, badges, record, rivalry): anyone signed in but the one
    /// they blocked, to whom they do not exist. Who blocked them still sees them (their profile says
    /// `friendship: blocked`, and is where they lift the block): a block protects the one who made it.
    static let aboutOwner: Rule = Rule.signedIn.except([.blocked: .hidden])

    /// Only the owner's friend (the member) acts on the owner's kudos; the owner may not give themselves one.
    static let kudosToOwner: Rule = .per([
        .owner: .forbidden, .member: .allowed, .stranger: .forbidden, .outsiderOfPublic: .forbidden,
        .removed: .forbidden, .invitee: .forbidden, .operator: .forbidden, .blocked: .hidden, .blocker: .forbidden,
    ])

    /// The same answer for every caller signed in.
    static func everyone(_ answer: Answer) -> Rule {
        .per(Dictionary(uniqueKeysWithValues: Caller.allCases.filter { $0 != .anonymous }.map { ($0, answer) }))
    }

    /// Allowed to one caller, who holds the edge the operation acts on; to everyone else there is none.
    static func onlyFor(_ holders: Set<Caller>) -> Rule {
        .per(
            Dictionary(
                uniqueKeysWithValues: Caller.allCases.filter { $0 != .anonymous }.map {
                    ($0, holders.contains($0) ? Answer.allowed : .hidden)
                }
            )
        )
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
        "signOut": Row(rule: .signedIn, destructive: true, success: 204),
        "deleteAccount": Row(rule: .signedIn, destructive: true, success: 204),
        "exportAccount": Row(rule: .signedIn),
        "openMigration": Row(rule: .signedIn, body: { _, _ in ["expected": 10] }, success: 201),
        "getMigration": Row(rule: .ownerOnly),
        "getConfig": Row(rule: .signedIn),
        "getProfile": Row(rule: .signedIn),
        "updateProfile": Row(rule: .signedIn, body: { _, _ in TestApp.validProfile() }),
        "changeProfile": Row(rule: .signedIn, body: { _, _ in ["displayName": "Changed"] }),
        "uploadProfilePhoto": Row(rule: .signedIn, image: true),
        "getProfilePhoto": Row(rule: .signedIn),
        "recordActivity": Row(
            rule: .signedIn,
            body: { world, caller in
                ["clientEventId": "matrix-\(caller)", "type": "app_open", "occurredAt": world.now]
            },
            success: 201
        ),
        "listActivities": Row(rule: .signedIn),
        "listActivityChanges": Row(rule: .signedIn),
        // The owner's run, edited: another caller has no activity of that client id (404).
        "editActivity": Row(
            rule: .ownerOnly,
            body: { world, _ in ["modifiedAt": world.now, "activity": Self.matrixRun(at: world.now)] }
        ),
        "recordActivityBatch": Row(
            rule: .signedIn,
            body: { world, caller in
                ["events": [["clientEventId": "matrix-batch-\(caller)", "type": "app_open", "occurredAt": world.now]]]
            }
        ),
        "syncDailyTotals": Row(
            rule: .signedIn,
            body: { world, caller in ["steps": 1200, "source": "healthkit", "occurredAt": world.now] }
        ),
        "listDailyTotals": Row(rule: .signedIn),
        "getUserStats": Row(rule: .signedIn),
        "checkIn": Row(rule: .signedIn, body: { _, _ in ["mood": 4, "energy": 3] }, success: 201),
        "getCurrentStreak": Row(rule: .signedIn),
        // Everyone claimed yesterday's check-in (see `World`), so a freeze has a streak to protect today.
        "freezeStreak": Row(rule: .signedIn, body: { _, _ in [:] }, destructive: true),
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
        // The matrix's profile (fitcircle) keeps no push-up week, so there is never a choice to make (409);
        // `GoalsTests` makes one under the push-up profile.
        "chooseWeeklyGoal": Row(rule: Self.everyone(.answered(409)), body: { _, _ in ["choice": "maintain"] }),
        "assessTraining": Row(
            rule: .signedIn,
            body: { _, _ in ["level": "beginner", "capacity": 12, "workoutDaysPerWeek": 3] }
        ),
        "confirmTraining": Row(rule: .signedIn, body: { _, _ in ["skipped": true] }),
        "getTrainingSettings": Row(rule: .signedIn),
        "updateTrainingSettings": Row(
            rule: .signedIn,
            body: { _, _ in
                [
                    "level": "beginner", "capacity": 12, "workoutDaysPerWeek": 3, "dailyGoal": 30, "startingSeries": 2,
                    "recoverySeconds": 60,
                ]
            }
        ),
        "getPointsLedger": Row(rule: .signedIn),
        "getDailyPoints": Row(rule: .signedIn),
        "getBadges": Row(rule: .signedIn),
        "updateBadgeShowcase": Row(rule: .signedIn, body: { _, _ in ["badgeIds": []] }),
        "getEmailPreferences": Row(rule: .signedIn),
        "updateEmailPreferences": Row(rule: .signedIn, body: { _, _ in ["enabled": true] }),
        "changeEmailPreferences": Row(rule: .signedIn, body: { _, _ in ["enabled": true] }),
        "getNotificationPreferences": Row(rule: .signedIn),
        "updateNotificationPreferences": Row(rule: .signedIn, body: { _, _ in ["push": true] }),
        "changeNotificationPreferences": Row(rule: .signedIn, body: { _, _ in ["push": true] }),
        "registerDevice": Row(
            rule: .signedIn,
            body: { _, caller in ["platform": "android", "token": "device-\(caller)"] },
            success: 201
        ),
        "createDevice": Row(
            rule: .signedIn,
            body: { _, caller in ["platform": "ios", "token": "phone-\(caller)"] },
            success: 201
        ),
        "listDevices": Row(rule: .signedIn),
        "getNotificationInbox": Row(rule: .signedIn),
        "streamNotificationInbox": Row(rule: .signedIn, query: "?seconds=1"),
        "streamFriendFeed": Row(rule: .signedIn, query: "?seconds=1"),
        "getNotificationHistory": Row(rule: .signedIn),
        "listFitCircles": Row(rule: .signedIn),
        "createFitCircle": Row(
            rule: .signedIn,
            body: { _, _ in ["name": "Another", "metric": "steps"] },
            success: 201
        ),
        "submitToAllFitCircles": Row(rule: .signedIn),
        "getPendingSubmissions": Row(rule: .signedIn),
        // The owner's photo is for their friends (the member); badges are public to anyone signed in.
        "getUserPhoto": Row(
            rule: .per([
                .owner: .allowed, .member: .allowed, .stranger: .hidden, .outsiderOfPublic: .hidden, .removed: .hidden,
                .invitee: .hidden, .operator: .hidden, .blocked: .hidden, .blocker: .hidden,
            ])
        ),
        "getUserBadges": Row(rule: Self.aboutOwner),
        // Kudos on the owner's page: seen as their badges are; given (and taken back) by their friend only.
        "getUserKudos": Row(rule: Self.aboutOwner),
        "giveKudos": Row(rule: Self.kudosToOwner),
        "takeBackKudos": Row(rule: Self.kudosToOwner),
        // Friends: every caller acts on their own edges with the member (see `World`).
        "listFriends": Row(rule: .signedIn),
        "listFriendRequests": Row(rule: .signedIn),
        "listNewContent": Row(rule: .signedIn),
        "recordEvents": Row(
            rule: .signedIn,
            body: { world, _ in
                [
                    "events": [
                        [
                            "clientEventId": "matrix", "name": "screen_viewed", "occurredAt": world.now,
                            "properties": ["screen": "home"],
                        ]
                    ]
                ]
            }
        ),
        // The owner's private challenge: the member (their friend) invited and joined, the rest never asked.
        "createCompetition": Row(
            rule: .signedIn,
            body: { _, _ in ["name": "Matrix", "type": "distance", "durationDays": 3] },
            success: 201
        ),
        "listCompetitions": Row(rule: .signedIn),
        "listCompetitionTemplates": Row(rule: .signedIn),
        "getChallengeRecord": Row(rule: Self.aboutOwner),
        "getRivalry": Row(rule: Self.aboutOwner),
        "listRivals": Row(rule: .signedIn),
        "getCompetition": Row(rule: Self.challengeRead),
        "getCompetitionLeaderboard": Row(rule: Self.challengeRead),
        "streamCompetition": Row(rule: Self.challengeRead, query: "?seconds=1"),
        "joinCompetition": Row(
            rule: .per([
                .owner: .allowed, .member: .allowed, .stranger: .hidden, .outsiderOfPublic: .allowed, .removed: .hidden,
                .invitee: .hidden,
                .operator: .forbidden, .blocked: .hidden, .blocker: .hidden,
            ]),
            body: { _, _ in [:] },
            destructive: true
        ),
        "declineCompetition": Row(
            rule: .per([
                .owner: .forbidden, .member: .forbidden, .stranger: .hidden, .outsiderOfPublic: .forbidden,
                .removed: .hidden, .invitee: .hidden,
                .operator: .forbidden, .blocked: .hidden, .blocker: .hidden,
            ]),
            success: 204
        ),
        "leaveCompetition": Row(
            rule: .per([
                .owner: .allowed, .member: .allowed, .stranger: .hidden, .outsiderOfPublic: .forbidden,
                .removed: .hidden, .invitee: .hidden,
                .operator: .forbidden, .blocked: .hidden, .blocker: .hidden,
            ]),
            destructive: true,
            success: 204
        ),
        "markContentSeen": Row(rule: .signedIn),
        "publishWeeklyContent": Row(rule: .operatorOnly),
        "getMetrics": Row(rule: .operatorOnly),
        "createExperiment": Row(
            rule: .operatorOnly,
            body: { _, _ in ["name": UUID().uuidString.lowercased(), "variants": [["name": "a"], ["name": "b"]]] },
            success: 201
        ),
        "listExperiments": Row(rule: .operatorOnly),
        "getExperiment": Row(rule: .operatorOnly),
        "changeExperiment": Row(rule: .operatorOnly, body: { _, _ in ["rolloutPercent": 50] }),
        "getExperimentResults": Row(rule: .operatorOnly),
        "registerWebhook": Row(
            rule: .operatorOnly,
            body: { _, _ in ["url": "http://127.0.0.1:9/spare", "events": ["level_up"]] },
            success: 201
        ),
        "listWebhooks": Row(rule: .operatorOnly),
        "deleteWebhook": Row(rule: .operatorOnly, destructive: true, success: 204),
        "listWebhookDeliveries": Row(rule: .operatorOnly),
        "replayWebhookDelivery": Row(rule: .operatorOnly, success: 202),
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
        "blockUser": Row(
            rule: Rule.signedIn.except([.member: .answered(422)]),
            body: { world, _ in ["userId": world.ids[.member]!] },
            destructive: true,
            success: 204
        ),
        // Nobody befriends themself; the operator blocked the member; the owner is their friend already.
        "requestFriend": Row(
            rule: .per([
                .owner: .allowed, .member: .forbidden, .stranger: .allowed, .outsiderOfPublic: .allowed,
                .removed: .allowed,
                .invitee: .allowed, .operator: .forbidden, .blocked: .allowed, .blocker: .allowed,
            ]),
            body: { world, _ in ["userId": world.ids[.member]!] },
            destructive: true
        ),
        // Only the one asked answers a request; only the one who asked withdraws it.
        "acceptFriendRequest": Row(
            rule: Self.onlyFor([.member]),
            body: { world, _ in ["userId": world.ids[.invitee]!] },
            destructive: true,
            success: 204
        ),
        "declineFriendRequest": Row(
            rule: Self.onlyFor([.member]),
            body: { world, _ in ["userId": world.ids[.invitee]!] },
            destructive: true,
            success: 204
        ),
        "cancelFriendRequest": Row(rule: Self.onlyFor([.invitee]), destructive: true, success: 204),
        "removeFriend": Row(rule: Self.onlyFor([.owner]), destructive: true, success: 204),
        "unblockUser": Row(rule: Self.onlyFor([.operator]), destructive: true, success: 204),
        "getFriendFeed": Row(rule: .signedIn),
        "getUserProfile": Row(rule: Self.aboutOwner),
        // Whoever the caller may not see is left out of the answer (PeopleReadTests), never refused.
        "listUsers": Row(rule: .signedIn, query: "?ids=0190aaaa-0000-7000-8000-000000000000"),
        // The owner's run: the owner and their friend (the member) may react to it; to anyone else it does not exist.
        "addReaction": Row(rule: Self.onlyFor([.owner, .member]), body: { _, _ in ["reaction": "🔥"] }),
        "removeReaction": Row(rule: Self.onlyFor([.owner, .member]), success: 204),
        "getFeedItem": Row(rule: Self.onlyFor([.owner, .member])),
        "setActivityVisibility": Row(rule: .ownerOnly, body: { _, _ in ["visibility": "friends"] }),
        // The owner's own resources, named by id.
        "getActivity": Row(rule: .ownerOnly),
        "deleteActivity": Row(rule: .ownerOnly, destructive: true, success: 204),
        "updateDailyGoalProgress": Row(rule: .ownerOnly, body: { _, _ in ["value": 100] }),
        "deactivateDevice": Row(rule: .ownerOnly, destructive: true, success: 204),
        "getNotificationWhy": Row(rule: .ownerOnly),
        "markNotification": Row(rule: .ownerOnly, success: 204),
        // Operators.
        "sendNotification": Row(
            rule: .operatorOnly,
            body: { world, _ in ["userId": world.ids[.owner]!, "type": "welcome", "dedupeKey": UUID().uuidString] }
        ),
        "refreshFitCircleLeaderboard": Row(rule: circleRefresh),
        // Circles.
        // Who is in the circle already gets it back as it is (a repeat is safe).
        "joinFitCircle": Row(
            rule: circleJoin,
            body: { world, caller in ["code": world.code(for: caller)] },
            destructive: true
        ),
        "getFitCircle": Row(rule: circleRead),
        "listFitCircleMembers": Row(rule: circleRead),
        "getFitCircleLeaderboard": Row(rule: circleRead),
        "getFitCircleMemberStandings": Row(rule: circleRead),
        "getFitCircleLeaderboardHistory": Row(rule: circleRead),
        "getFitCircleFeed": Row(rule: circleRead),
        "getFitCircleSubmissionsToday": Row(rule: circleRead),
        // The owner submitted today already: their submission is answered again (200).
        "submitToFitCircle": Row(rule: circleParticipate.except([.owner: .answered(200)]), success: 201),
        // The owner's item: to the one they blocked it does not exist; who blocked them is told so; the owner
        // does not encourage their own news (409).
        "encourageFeedItem": Row(
            rule: Self.circleParticipate.except([.owner: .answered(409), .blocked: .hidden, .blocker: .forbidden]),
            body: { _, _ in [:] },
            success: 201
        ),
        // The member is the one encouraged, and nobody encourages themself (409).
        "encourageFitCircleMember": Row(
            rule: circleParticipate.except([.member: .answered(409)]),
            body: { _, _ in [:] },
            success: 201
        ),
        "streamFitCircle": Row(rule: circleParticipate, query: "?seconds=1"),
        "leaveFitCircle": Row(rule: circleParticipate, destructive: true, success: 204),
        "updateFitCircle": Row(rule: circleManage, body: { _, _ in ["name": "Renamed", "metric": "steps"] }),
        "changeFitCircle": Row(rule: circleManage, body: { _, _ in ["name": "Changed"] }),
        "inviteToFitCircle": Row(
            rule: circleManage,
            body: { _, caller in ["email": "invited-by-\(caller)@example.com"] },
            success: 201
        ),
        "listFitCircleInvitations": Row(rule: circleManage),
        "listReceivedInvitations": Row(rule: .signedIn),
        "getReceivedInvitation": Row(rule: Self.onlyFor([.invitee])),
        "declineInvitation": Row(rule: Self.onlyFor([.invitee]), destructive: true, success: 204),
        "revokeFitCircleInvitation": Row(rule: circleManage, destructive: true, success: 204),
        "rotateFitCircleCode": Row(rule: circleManage, destructive: true),
        "listFitCircleBans": Row(rule: circleManage),
        "liftFitCircleBan": Row(rule: circleManage, destructive: true, success: 204),
        "removeFitCircleMember": Row(rule: circleManage, destructive: true, success: 204),
        "setFitCircleRole": Row(rule: circleManage, body: { _, _ in ["role": "admin"] }, destructive: true),
        "archiveFitCircle": Row(rule: circleManage, destructive: true, success: 204),
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
        for line in try String(contentsOf: document, encoding: .utf8).split(
            separator: "\n",
            omittingEmptySubsequences: false
        ) {
            if line.hasPrefix("  /"), line.hasSuffix(":"), !line.hasPrefix("   ") {
                path = String(line.dropFirst(2).dropLast())
            } else if line.hasPrefix("    "), !line.hasPrefix("     "),
                ["get:", "put:", "post:", "delete:", "patch:"].contains(line.dropFirst(4))
            {
                method = String(line.dropFirst(4).dropLast())
            } else if line.hasPrefix("      operationId: "), !path.isEmpty {
                operations.append(
                    Operation(
                        id: String(line.dropFirst(19)),
                        method: HTTPRequest.Method(method.uppercased())!,
                        path: path
                    )
                )
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
            case _ where path.hasPrefix("/api/activities/{id}/reactions"): world.run
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
            .replacingOccurrences(of: "{activityId}", with: world.run)
            .replacingOccurrences(of: "{itemId}", with: world.feedItem)
            .replacingOccurrences(of: "{event}", with: "read")
            .replacingOccurrences(of: "{reaction}", with: "%F0%9F%94%A5")
            .replacingOccurrences(of: "{token}", with: "not-a-token")
            .replacingOccurrences(of: "{key}", with: "matrix")
            .replacingOccurrences(of: "{week}", with: world.week)
            .replacingOccurrences(of: "{deliveryId}", with: world.webhookDelivery)
        return path + row.query
    }

    /// The matrix runs in this many parts, each on an app and a world of its own, so that the suite's longest
    /// test is a part of it rather than the whole (the parts run side by side).
    static let parts = 4

    /// Part `index` of `operations`: whole resources (`/api/<resource>…`, `/api/admin/<resource>…`), so that an
    /// operation that undoes another (a reaction removed after it was added) runs after it on the same world;
    /// the largest resources first, each to the part with the fewest operations so far.
    static func part(_ index: Int, of operations: [Operation]) -> [Operation] {
        let resources = Dictionary(grouping: operations) { operation in
            let components = operation.path.split(separator: "/")
            return components.count > 2 && components[1] == "admin"
                ? "admin/\(components[2])" : components.dropFirst().first.map(String.init) ?? ""
        }
        var parts = [[Operation]](repeating: [], count: Self.parts)
        for (_, group) in resources.sorted(by: { ($0.value.count, $1.key) > ($1.value.count, $0.key) }) {
            let smallest = parts.indices.min { parts[$0].count < parts[$1].count } ?? 0
            parts[smallest] += group
        }
        return operations.filter { operation in parts[index].contains { $0.id == operation.id } }
    }

    @Test func everyOperationHasARowAndEveryRowAnOperation() throws {
        let operations = try Self.operations()
        let unlisted = operations.filter { Self.rows[$0.id] == nil }
        #expect(unlisted.isEmpty, "operations without a row in the matrix: \(unlisted)")
        let stale = Set(Self.rows.keys).subtracting(operations.map(\.id))
        #expect(stale.isEmpty, "rows for operations the document no longer has: \(stale.sorted())")
    }

    @Test(arguments: Backend.available, 0..<Self.parts)
    func everyOperationAnswersEveryCallerAsThePolicySays(_ backend: Backend, part: Int) async throws {
        let operations = try Self.part(part, of: Self.operations())
        #expect(!operations.isEmpty)

        try await withTestApp(backend) { app in
            let shared = try await World.make(app)
            var (cells, unexpected) = (0, [String]())
            for operation in operations {
                guard let row = Self.rows[operation.id] else { continue }
                var answers: [Caller: Int] = [:]
                // Refused callers first: they must change nothing, so the world stays as it was.
                let ordered = Caller.allCases.sorted {
                    (row.rule.answer(for: $0) == .allowed ? 1 : 0) < (row.rule.answer(for: $1) == .allowed ? 1 : 0)
                }
                for caller in ordered {
                    let expected = row.rule.answer(for: caller)
                    let world = expected == .allowed && row.destructive ? try await World.make(app) : shared
                    let uri = Self.uri(operation, row, in: world, for: caller)
                    let response =
                        row.image
                        ? try await app.request(
                            operation.method,
                            uri,
                            token: world.tokens[caller],
                            body: Data(TestImages.png(withText: nil)),
                            headers: [.contentType: "image/png"]
                        )
                        : try await app.request(
                            operation.method,
                            uri,
                            token: world.tokens[caller],
                            json: row.body?(world, caller)
                        )
                    let status = Int(response.status.code)
                    answers[caller] = status
                    cells += 1
                    if let expected, row.status(for: expected) != status {
                        unexpected.append(
                            "\(operation.id) as \(caller): expected \(row.status(for: expected)), got \(status) \(response.text.prefix(160))"
                        )
                    }
                }
                if case .open = row.rule, Set(answers.values).count > 1 {
                    unexpected.append("\(operation.id) answers differently by caller: \(answers)")
                }
            }
            #expect(
                unexpected.isEmpty,
                "\(unexpected.count) unexpected answers:\n\(unexpected.joined(separator: "\n"))"
            )
            #expect(cells == operations.count * Caller.allCases.count)
            print(
                "authorisation matrix (\(backend), part \(part + 1) of \(Self.parts)): \(operations.count) operations × \(Caller.allCases.count) callers = \(cells) answers, \(unexpected.count) unexpected"
            )
        }
    }
}
