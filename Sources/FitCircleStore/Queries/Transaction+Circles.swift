public import FitCircleCore
public import Foundation
import SQLKit

extension Transaction {
    /// The queries of circles and their members (`circles`, `circle_members`).
    public var circles: CircleQueries { CircleQueries(tx: self) }
}

public struct CircleQueries: Sendable {
    let tx: Transaction

    private var sql: any SQLDatabase { self.tx.sql }
    private var dialect: Store.Dialect { self.tx.dialect }

    public func insert(_ circle: FitCircle) async throws {
        try await self.sql.raw(
            """
            INSERT INTO circles (id, name, description, metric, start_date, end_date, time_zone, privacy, member_limit, step_goal, owner_id,
                join_code, archived_at, created_at, updated_at)
            VALUES (\(bind: circle.id.rawValue), \(bind: circle.name), \(bind: circle.description), \(bind: circle.metric.rawValue),
                \(bind: circle.startDate.iso), \(bind: circle.endDate?.iso), \(bind: circle.timeZone), \(bind: circle.privacy.rawValue),
                \(bind: circle.memberLimit), \(bind: circle.stepGoal), \(bind: circle.ownerID.rawValue), \(bind: circle.joinCode), \(bind: circle.archivedAt),
                \(bind: circle.createdAt), \(bind: circle.createdAt))
            """
        ).run()
    }

    /// Stores every field but the id, owner, code and creation time.
    public func update(_ circle: FitCircle, at now: Date) async throws {
        try await self.sql.raw(
            """
            UPDATE circles SET name = \(bind: circle.name), description = \(bind: circle.description), metric = \(bind: circle.metric.rawValue),
                start_date = \(bind: circle.startDate.iso), end_date = \(bind: circle.endDate?.iso), time_zone = \(bind: circle.timeZone),
                privacy = \(bind: circle.privacy.rawValue), member_limit = \(bind: circle.memberLimit), step_goal = \(bind: circle.stepGoal), owner_id = \(bind: circle.ownerID.rawValue),
                archived_at = \(bind: circle.archivedAt), updated_at = \(bind: now)
            WHERE id = \(bind: circle.id.rawValue)
            """
        ).run()
        try await self.tx.changed(.circle(circle.id))
    }

    public func circle(_ id: FitCircle.ID) async throws -> FitCircle? {
        try await self.sql.raw("SELECT * FROM circles WHERE id = \(bind: id.rawValue)").first().map(Self.circle(from:))
    }

    /// The circle, locked for the rest of the transaction (joins check the member limit under it).
    public func locked(_ id: FitCircle.ID) async throws -> FitCircle? {
        let lock = self.dialect == .postgres ? " FOR UPDATE" : ""
        return try await self.sql.raw("SELECT * FROM circles WHERE id = \(bind: id.rawValue)\(unsafeRaw: lock)").first()
            .map(Self.circle(from:))
    }

    /// The circle with `user`'s open stint in it (if any) and its member count, in one read.
    public func circle(_ id: FitCircle.ID, seenBy user: User.ID) async throws -> (
        circle: FitCircle, membership: CircleMembership?, memberCount: Int
    )? {
        guard
            let row = try await self.sql.raw(
                """
                SELECT c.*, m.role AS m_role, m.joined_at AS m_joined_at, m.starting_weight_kg AS m_starting_weight_kg,
                    m.target_weight_kg AS m_target_weight_kg
                FROM circles c LEFT JOIN circle_members m ON m.circle_id = c.id AND m.user_id = \(bind: user.rawValue) AND m.left_at IS NULL
                WHERE c.id = \(bind: id.rawValue)
                """
            ).first()
        else { return nil }
        let membership = try row.decode(column: "m_role", as: String?.self).map { role in
            CircleMembership(
                circleID: id,
                userID: user,
                role: CircleRole(rawValue: role) ?? .member,
                joinedAt: try row.decode(column: "m_joined_at", as: Date.self),
                startingWeightKg: try row.decode(column: "m_starting_weight_kg", as: Double?.self),
                targetWeightKg: try row.decode(column: "m_target_weight_kg", as: Double?.self)
            )
        }
        return (try Self.circle(from: row), membership, try row.decode(column: "member_count", as: Int.self))
    }

    /// Gives the circle a new join code: the old one stops working at once.
    public func setJoinCode(_ code: String, of circle: FitCircle.ID) async throws {
        try await self.sql.raw("UPDATE circles SET join_code = \(bind: code) WHERE id = \(bind: circle.rawValue)").run()
        try await self.tx.changed(.circle(circle))
    }

    public func circle(withJoinCode code: String) async throws -> FitCircle? {
        try await self.sql.raw("SELECT * FROM circles WHERE join_code = \(bind: code)").first().map(Self.circle(from:))
    }

    /// The circles the user is a member of now, newest first, with the user's role.
    public func list(of user: User.ID) async throws -> [(circle: FitCircle, role: CircleRole)] {
        try await self.sql.raw(
            """
            SELECT c.*, m.role AS member_role FROM circles c JOIN circle_members m ON m.circle_id = c.id
            WHERE m.user_id = \(bind: user.rawValue) AND m.left_at IS NULL ORDER BY c.created_at DESC, c.id DESC
            """
        ).all().map { row in
            (
                try Self.circle(from: row),
                CircleRole(rawValue: try row.decode(column: "member_role", as: String.self)) ?? .member
            )
        }
    }

    /// The circles the user is in, newest first, with their role, a page at a time: after `last`, the page
    /// before's last (when it was made and its id).
    public func list(of user: User.ID, after last: InstantKey?, limit: Int) async throws -> [(
        circle: FitCircle, role: CircleRole
    )] {
        let after: SQLQueryString =
            last.map { "AND \(self.tx.keyset("c.created_at", "c.id", after: $0, descending: true))" } ?? ""
        return try await self.sql.raw(
            """
            SELECT c.*, m.role AS member_role FROM circles c JOIN circle_members m ON m.circle_id = c.id
            WHERE m.user_id = \(bind: user.rawValue) AND m.left_at IS NULL \(after)
            ORDER BY c.created_at DESC, c.id DESC LIMIT \(bind: limit)
            """
        ).all().map { row in
            (
                try Self.circle(from: row),
                CircleRole(rawValue: try row.decode(column: "member_role", as: String.self)) ?? .member
            )
        }
    }

    /// The user's open stints in weight-loss circles that are not archived, with their circles.
    public func weightLossMemberships(of user: User.ID) async throws -> [(
        circle: FitCircle, membership: CircleMembership
    )] {
        try await self.sql.raw(
            """
            SELECT c.*, m.circle_id, m.user_id, m.role, m.joined_at, m.left_at, m.starting_weight_kg, m.target_weight_kg
            FROM circles c JOIN circle_members m ON m.circle_id = c.id
            WHERE m.user_id = \(bind: user.rawValue) AND m.left_at IS NULL AND c.archived_at IS NULL
                AND c.metric = \(bind: FitCircle.Metric.weightLossPct.rawValue)
            ORDER BY c.id
            """
        ).all().map { row in (try Self.circle(from: row), try Self.membership(from: row)) }
    }

    /// The latest stint of each of `users` in the circle (current or ended).
    public func latestMemberships(of users: [User.ID], in circle: FitCircle.ID) async throws -> [User.ID:
        CircleMembership]
    {
        guard !users.isEmpty else { return [:] }
        let stints = try await self.sql.raw(
            """
            SELECT * FROM circle_members WHERE circle_id = \(bind: circle.rawValue)
                AND user_id IN (\(SQLList(users.map { SQLBind($0.rawValue) }))) ORDER BY joined_at
            """
        ).all().map(Self.membership(from:))
        return Dictionary(stints.map { ($0.userID, $0) }, uniquingKeysWith: { _, later in later })
    }

    /// The user's open stint in the circle.
    public func membership(of user: User.ID, in circle: FitCircle.ID) async throws -> CircleMembership? {
        try await self.sql.raw(
            """
            SELECT * FROM circle_members WHERE circle_id = \(bind: circle.rawValue) AND user_id = \(bind: user.rawValue) AND left_at IS NULL
            """
        ).first().map(Self.membership(from:))
    }

    /// Adds a stint (and, when it is open, one to the circle's member count).
    public func insert(_ membership: CircleMembership) async throws {
        try await self.sql.raw(
            """
            INSERT INTO circle_members (circle_id, user_id, role, joined_at, left_at, starting_weight_kg, target_weight_kg, stint)
            VALUES (\(bind: membership.circleID.rawValue), \(bind: membership.userID.rawValue), \(bind: membership.role.rawValue),
                \(bind: membership.joinedAt), \(bind: membership.leftAt), \(bind: membership.startingWeightKg), \(bind: membership.targetWeightKg),
                (SELECT COUNT(*) FROM circle_members WHERE circle_id = \(bind: membership.circleID.rawValue) AND user_id = \(bind: membership.userID.rawValue)))
            """
        ).run()
        try await self.tx.changed(.circle(membership.circleID))
        if membership.leftAt == nil { try await self.countMembers(of: membership.circleID, by: 1) }
    }

    /// Closes the user's open stint, if any.
    public func endMembership(of user: User.ID, in circle: FitCircle.ID, at now: Date) async throws {
        let ended = try await self.sql.raw(
            """
            UPDATE circle_members SET left_at = \(bind: now)
            WHERE circle_id = \(bind: circle.rawValue) AND user_id = \(bind: user.rawValue) AND left_at IS NULL RETURNING user_id
            """
        ).all()
        if !ended.isEmpty { try await self.countMembers(of: circle, by: -1) }
    }

    private func countMembers(of circle: FitCircle.ID, by change: Int) async throws {
        try await self.sql.raw(
            "UPDATE circles SET member_count = member_count + \(bind: change) WHERE id = \(bind: circle.rawValue)"
        ).run()
        try await self.tx.changed(.circle(circle))
    }

    public func setRole(_ role: CircleRole, of user: User.ID, in circle: FitCircle.ID) async throws {
        try await self.sql.raw(
            """
            UPDATE circle_members SET role = \(bind: role.rawValue)
            WHERE circle_id = \(bind: circle.rawValue) AND user_id = \(bind: user.rawValue) AND left_at IS NULL
            """
        ).run()
        try await self.tx.changed(.circle(circle))
    }

    /// Whether the two are members of one circle now.
    public func sharesCircle(_ one: User.ID, _ other: User.ID) async throws -> Bool {
        try await self.sql.raw(
            """
            SELECT 1 AS one FROM circle_members a JOIN circle_members b ON b.circle_id = a.circle_id
            WHERE a.user_id = \(bind: one.rawValue) AND a.left_at IS NULL AND b.user_id = \(bind: other.rawValue) AND b.left_at IS NULL LIMIT 1
            """
        ).first() != nil
    }

    /// The current members in the order they joined.
    public func members(of circle: FitCircle.ID) async throws -> [CircleMemberRow] {
        try await self.sql.raw(
            """
            \(unsafeRaw: Self.memberRows)
            WHERE m.circle_id = \(bind: circle.rawValue) AND m.left_at IS NULL ORDER BY m.joined_at, m.user_id
            """
        ).all().map(Self.memberRow(from:))
    }

    /// A page of the current members in the order they joined, after the member `last` (the last of the page
    /// before; someone who left since still marks the place). A member has a row per time they joined: their
    /// latest marks it.
    public func members(of circle: FitCircle.ID, after last: User.ID?, limit: Int) async throws -> [CircleMemberRow] {
        let after =
            last.map {
                """
                AND (m.joined_at, m.user_id) > (SELECT l.joined_at, l.user_id FROM circle_members l
                    WHERE l.circle_id = \(bind: circle.rawValue) AND l.user_id = \(bind: $0.rawValue)
                    ORDER BY l.joined_at DESC LIMIT 1)
                """ as SQLQueryString
            } ?? ""
        return try await self.sql.raw(
            """
            \(unsafeRaw: Self.memberRows)
            WHERE m.circle_id = \(bind: circle.rawValue) AND m.left_at IS NULL \(after)
            ORDER BY m.joined_at, m.user_id LIMIT \(bind: limit)
            """
        ).all().map(Self.memberRow(from:))
    }

    /// One current member's row.
    public func member(_ user: User.ID, of circle: FitCircle.ID) async throws -> CircleMemberRow? {
        try await self.sql.raw(
            """
            \(unsafeRaw: Self.memberRows)
            WHERE m.circle_id = \(bind: circle.rawValue) AND m.user_id = \(bind: user.rawValue) AND m.left_at IS NULL
            """
        ).first().map(Self.memberRow(from:))
    }

    /// Members with what their rows show of them (name, photo and audiences), as `memberRow(from:)` reads.
    private static let memberRows =
        "SELECT m.*, u.display_name, u.photo_key, u.visibility_photo, u.visibility_board_name, u.visibility_weight FROM circle_members m JOIN users u ON u.id = m.user_id"

    private static func memberRow(from row: any SQLRow) throws -> CircleMemberRow {
        CircleMemberRow(
            membership: try Self.membership(from: row),
            displayName: try row.decode(column: "display_name", as: String.self),
            photo: try Transaction.photo(row),
            boardNameAudience: Audience(rawValue: try row.decode(column: "visibility_board_name", as: String.self))
                ?? .onlyMe,
            weightAudience: Audience(rawValue: try row.decode(column: "visibility_weight", as: String.self)) ?? .onlyMe
        )
    }

    /// Every stint in the circle, current or ended, in the order they began.
    public func memberships(of circle: FitCircle.ID) async throws -> [CircleMembership] {
        try await self.sql.raw(
            "SELECT * FROM circle_members WHERE circle_id = \(bind: circle.rawValue) ORDER BY joined_at, user_id"
        )
        .all().map(Self.membership(from:))
    }

    /// The circle's current members (kept on its row by `insert` and `endMembership`).
    public func memberCount(of circle: FitCircle.ID) async throws -> Int {
        try await self.sql.raw("SELECT member_count FROM circles WHERE id = \(bind: circle.rawValue)").first()?.decode(
            column: "member_count",
            as: Int.self
        ) ?? 0
    }

    static func circle(from row: any SQLRow) throws -> FitCircle {
        FitCircle(
            id: FitCircle.ID(try row.decode(column: "id", as: String.self)),
            name: try row.decode(column: "name", as: String.self),
            description: try row.decode(column: "description", as: String?.self),
            metric: FitCircle.Metric(rawValue: try row.decode(column: "metric", as: String.self)) ?? .steps,
            startDate: try Transaction.date(row, "start_date"),
            endDate: try row.decode(column: "end_date", as: String?.self).flatMap { LocalDate(iso: $0) },
            timeZone: try row.decode(column: "time_zone", as: String.self),
            privacy: FitCircle.Privacy(rawValue: try row.decode(column: "privacy", as: String.self)) ?? .private,
            memberLimit: try row.decode(column: "member_limit", as: Int.self),
            stepGoal: try row.decode(column: "step_goal", as: Int?.self),
            ownerID: User.ID(try row.decode(column: "owner_id", as: String.self)),
            joinCode: try row.decode(column: "join_code", as: String.self),
            archivedAt: try row.decode(column: "archived_at", as: Date?.self),
            createdAt: try row.decode(column: "created_at", as: Date.self)
        )
    }

    private static func membership(from row: any SQLRow) throws -> CircleMembership {
        CircleMembership(
            circleID: FitCircle.ID(try row.decode(column: "circle_id", as: String.self)),
            userID: User.ID(try row.decode(column: "user_id", as: String.self)),
            role: CircleRole(rawValue: try row.decode(column: "role", as: String.self)) ?? .member,
            joinedAt: try row.decode(column: "joined_at", as: Date.self),
            leftAt: try row.decode(column: "left_at", as: Date?.self),
            startingWeightKg: try row.decode(column: "starting_weight_kg", as: Double?.self),
            targetWeightKg: try row.decode(column: "target_weight_kg", as: Double?.self)
        )
    }
}

extension CircleQueries {
    /// The names and photo keys of `users` with their ranks in a board's snapshot, for the rows of a board.
    public func people(_ users: [User.ID], rankedIn snapshot: BoardID) async throws -> [User.ID: BoardPerson] {
        guard !users.isEmpty else { return [:] }
        var people: [User.ID: BoardPerson] = [:]
        for row in try await self.sql.raw(
            """
            SELECT u.id, u.display_name, u.photo_key, u.visibility_photo, u.visibility_board_name, u.visibility_weight, s.rank FROM users u
            LEFT JOIN circle_board_snapshots s ON s.user_id = u.id AND s.circle_id = \(bind: snapshot.owner.id)
                AND s.period = \(bind: snapshot.period.rawValue) AND s.period_start = \(bind: snapshot.start.iso)
            WHERE u.id IN (\(SQLList(users.map { SQLBind($0.rawValue) })))
            """
        ).all() {
            people[User.ID(try row.decode(column: "id", as: String.self))] = try Self.person(
                from: row,
                baselineRank: try row.decode(column: "rank", as: Int?.self)
            )
        }
        return people
    }

    /// `users` as lists show them (name, photo, who sees their name on boards).
    public func people(_ users: [User.ID]) async throws -> [User.ID: BoardPerson] {
        guard !users.isEmpty else { return [:] }
        var people: [User.ID: BoardPerson] = [:]
        for row in try await self.sql.raw(
            """
            SELECT id, display_name, photo_key, visibility_photo, visibility_board_name, visibility_weight FROM users
            WHERE id IN (\(SQLList(users.map { SQLBind($0.rawValue) })))
            """
        ).all() {
            people[User.ID(try row.decode(column: "id", as: String.self))] = try Self.person(
                from: row,
                baselineRank: nil
            )
        }
        return people
    }

    private static func person(from row: any SQLRow, baselineRank: Int?) throws -> BoardPerson {
        BoardPerson(
            name: try row.decode(column: "display_name", as: String.self),
            photo: try Transaction.photo(row),
            nameAudience: Audience(rawValue: try row.decode(column: "visibility_board_name", as: String.self))
                ?? .onlyMe,
            weightAudience: Audience(rawValue: try row.decode(column: "visibility_weight", as: String.self)) ?? .onlyMe,
            baselineRank: baselineRank
        )
    }
}
