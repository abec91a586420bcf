public import FitCircleCore
public import Foundation
import SQLKit

/// One kind of row an account's export holds: which table, whose rows (the column naming the person), a
/// unique order among them to page by, and which text columns hold JSON documents.
public struct ExportSection: Sendable {
    public var name: String
    public let table: String
    let owner: String
    public let key: [String]
    let json: Set<String>

    /// The owner of a row that belongs to one of the person's notifications.
    static let throughNotifications = "notification_id"

    init(_ name: String, _ table: String, owner: String = "user_id", key: [String], json: Set<String> = []) {
        self.name = name
        self.table = table
        self.owner = owner
        self.key = key
        self.json = json
    }

    /// Everything FitCircle holds about a person, section by section (spec 004, R11.7). Left out: refresh
    /// tokens (their hashes are secrets), remembered idempotent responses (machinery, gone within a day)
    /// and the search index's terms (their name, cut into words). A table added to the schema with a
    /// person's column belongs here (`AccountExportTests` compares this list with the schema).
    public static let all: [ExportSection] = [
        .init("account", "users", owner: "id", key: ["id"]),
        .init("identities", "identities", key: ["provider", "subject"]),
        .init("sessions", "sessions", key: ["id"]),
        .init("activities", "activity_events", key: ["id"], json: ["payload", "flags"]),
        .init("migrations", "migration_sessions", key: ["id"]),
        .init("dailyTracking", "daily_tracking", key: ["local_date"]),
        .init("streaks", "streaks", key: ["user_id"], json: ["state"]),
        .init("streakLedger", "streak_entries", key: ["period"], json: ["state"]),
        .init("streakFreezeRequests", "streak_freeze_requests", key: ["period"]),
        .init("trainingSettings", "training_settings", key: ["user_id"], json: ["settings"]),
        .init("goals", "goals", key: ["id"]),
        .init("weeklySummaries", "weekly_summaries", key: ["week_start"]),
        .init("weeklyContentSeen", "weekly_content_seen", key: ["week", "content_key"]),
        .init("pointsLedger", "points_ledger", key: ["seq"], json: ["detail"]),
        .init("rewardStats", "reward_stats", key: ["user_id"], json: ["counters"]),
        .init("badges", "user_badges", key: ["badge_id"]),
        .init("badgeShowcase", "badge_showcases", key: ["user_id"], json: ["badge_ids"]),
        .init("rewardEvents", "reward_events", key: ["id"], json: ["data"]),
        .init("analyticsEvents", "analytics_events", key: ["event_key"], json: ["properties"]),
        .init("experimentExposures", "experiment_exposures", key: ["experiment_id"]),
        .init("webhookDeliveries", "webhook_deliveries", key: ["id"], json: ["payload"]),
        .init("notificationPreferences", "notification_preferences", key: ["user_id"], json: ["preferences"]),
        .init("devices", "push_devices", key: ["id"]),
        .init("notifications", "notifications", key: ["id"], json: ["data", "trail", "channels"]),
        .init("deliveryAttempts", "delivery_attempts", owner: Self.throughNotifications, key: ["id"]),
        .init("emails", "email_log", key: ["notification_id"], json: ["links"]),
        .init("circlesOwned", "circles", owner: "owner_id", key: ["id"]),
        .init("circleMemberships", "circle_members", key: ["circle_id", "stint"]),
        .init("circleClaims", "circle_submissions", key: ["circle_id", "local_date"]),
        .init("boardScores", "board_scores", key: ["owner_id", "period", "period_start"]),
        .init("closedBoardRanks", "circle_board_snapshots", key: ["circle_id", "period", "period_start"]),
        .init("circleBans", "circle_bans", key: ["circle_id"]),
        .init("circleFeedItems", "circle_feed", owner: "actor_id", key: ["id"], json: ["data"]),
        .init("encouragementsGiven", "circle_encouragements", owner: "sender_id", key: ["item_id"]),
        .init("circleInvitationsSent", "circle_invitations", owner: "invited_by", key: ["id"]),
        .init("circleInvitationsReceived", "circle_invitations", key: ["id"]),
        .init("friends", "friendships", key: ["friend_id"]),
        .init("friendRequestsSent", "friend_requests", owner: "from_user", key: ["to_user"]),
        .init("friendRequestsReceived", "friend_requests", owner: "to_user", key: ["from_user"]),
        .init("blocks", "user_blocks", owner: "blocker_id", key: ["blocked_id"]),
        .init("reactionsGiven", "activity_reactions", key: ["activity_id", "reaction"]),
        .init("challengesCreated", "challenges", owner: "creator_id", key: ["id"], json: ["rule"]),
        .init("challengeParticipations", "challenge_participants", key: ["challenge_id"]),
        .init("challengeRecord", "challenge_records", key: ["user_id"], json: ["record"]),
        .init("rivalries", "rivalries", key: ["rival_id"], json: ["record"]),
    ]
}

/// A stored value as the export writes it.
public enum ExportValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case text(String)
    case instant(Date)
    /// A text column holding a JSON document, embedded as such.
    case json(String)
}

/// A row of an export: its columns in the table's order, with their values.
public typealias ExportRow = [(column: String, value: ExportValue)]

/// A section's columns and what each holds, read from the schema.
public struct ExportColumns: Sendable {
    enum Kind: Sendable { case bool, int, double, text, instant, json }
    let columns: [(name: String, kind: Kind)]
}

extension AccountQueries {
    private var sql: any SQLDatabase { self.tx.sql }
    /// What the section's table holds, column by column (the schema's declared types).
    public func columns(of section: ExportSection) async throws -> ExportColumns {
        let declared = try await self.schemaColumns(of: section.table).map { ($0.column, $0.type) }
        return ExportColumns(
            columns: declared.map { name, type in
                let type = type.uppercased()
                let kind: ExportColumns.Kind =
                    section.json.contains(name)
                    ? .json
                    : type.contains("TIMESTAMP")
                        ? .instant
                        : type.contains("BOOL")
                            ? .bool
                            : type.contains("INT")
                                ? .int
                                : type.contains("DOUBLE") || type.contains("REAL")
                                    ? .double
                                    : .text
                return (name, kind)
            }
        )
    }

    /// The next `limit` rows of `user`'s in the section, after the row whose key values were `after`.
    public func exportRows(
        _ section: ExportSection,
        columns: ExportColumns,
        of user: User.ID,
        after: [ExportValue]?,
        limit: Int
    ) async throws -> [ExportRow] {
        let owner: SQLQueryString =
            section.owner == ExportSection.throughNotifications
            ? "notification_id IN (SELECT id FROM notifications WHERE user_id = \(bind: user.rawValue))"
            : "\(ident: section.owner) = \(bind: user.rawValue)"
        let key: SQLQueryString = "\(unsafeRaw: section.key.map { "\"\($0)\"" }.joined(separator: ", "))"
        var page: SQLQueryString = ""
        if let after {
            let values = SQLList(after.map(Self.bindable))
            page = "AND (\(key)) > (\(values))"
        }
        let rows = try await self.sql.raw(
            "SELECT * FROM \(ident: section.table) WHERE \(owner) \(page) ORDER BY \(key) LIMIT \(unsafeRaw: String(limit))"
        ).all()
        return try rows.map { row in
            try columns.columns.map { name, kind in
                guard try !row.decodeNil(column: name) else { return (name, .null) }
                let value: ExportValue =
                    switch kind {
                    case .bool: .bool(try row.decode(column: name, as: Bool.self))
                    case .int: .int(try row.decode(column: name, as: Int.self))
                    case .double: .double(try row.decode(column: name, as: Double.self))
                    case .instant: .instant(try row.decode(column: name, as: Date.self))
                    case .text: .text(try row.decode(column: name, as: String.self))
                    case .json: .json(try row.decode(column: name, as: String.self))
                    }
                return (name, value)
            }
        }
    }

    private static func bindable(_ value: ExportValue) -> any SQLExpression {
        switch value {
        case .null: SQLLiteral.null
        case .bool(let value): SQLBind(value)
        case .int(let value): SQLBind(value)
        case .double(let value): SQLBind(value)
        case .instant(let value): SQLBind(value)
        case .text(let value), .json(let value): SQLBind(value)
        }
    }
}
