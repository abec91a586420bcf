public import FitCircleCore
public import Foundation
import SQLKit

extension Transaction {
    /// The queries of challenges and competitions (`challenges`, `challenge_participants`).
    public var challenges: ChallengeQueries { ChallengeQueries(tx: self) }
}

/// Challenges, their participants and what a participant's score is computed from. The board's rows are
/// the board engine's (`board_scores`, owner `challenge`). Each write of a challenge or a participant
/// notes it (`CacheTag.challenge`): the nodes' memories hold challenges as their participants see them.
public struct ChallengeQueries: Sendable {
    let tx: Transaction

    private var sql: any SQLDatabase { self.tx.sql }
    private var lock: String { self.tx.dialect == .postgres ? " FOR UPDATE" : "" }

    public func insert(_ challenge: Challenge) async throws {
        try await self.sql.raw(
            """
            INSERT INTO challenges (id, name, description, type, rule, visibility, join_code, creator_id, time_zone, starts_at, ends_at, stake,
                min_participants, max_participants, template_id, template_version, created_at)
            VALUES (\(bind: challenge.id.rawValue), \(bind: challenge.name), \(bind: challenge.description), \(bind: challenge.type.rawValue),
                \(bind: try Transaction.json(challenge.rule)), \(bind: challenge.visibility.rawValue), \(bind: challenge.joinCode),
                \(bind: challenge.creatorID.rawValue), \(bind: challenge.timeZone), \(bind: challenge.startsAt), \(bind: challenge.endsAt),
                \(bind: challenge.stake), \(bind: challenge.minParticipants), \(bind: challenge.maxParticipants), \(bind: challenge.templateID),
                \(bind: challenge.templateVersion), \(bind: challenge.createdAt))
            """
        ).run()
        try await self.tx.changed(.challenge(challenge.id))
    }

    public func challenge(_ id: Challenge.ID) async throws -> Challenge? {
        try await self.sql.raw("SELECT * FROM challenges WHERE id = \(bind: id.rawValue)").first().map(
            Self.challenge(from:)
        )
    }

    /// The challenge, locked for the rest of the transaction (joins, leaves, settlement and payouts).
    public func locked(_ id: Challenge.ID) async throws -> Challenge? {
        try await self.sql.raw("SELECT * FROM challenges WHERE id = \(bind: id.rawValue)\(unsafeRaw: self.lock)")
            .first().map(Self.challenge(from:))
    }

    /// These challenges (those that exist), each locked for the rest of the transaction, in id order so that
    /// two transactions locking overlapping sets cannot deadlock (settlement and payouts, many at once).
    public func locked(_ ids: some Collection<Challenge.ID>) async throws -> [Challenge] {
        var found: [Challenge] = []
        for part in Set(ids).sorted().chunks(of: Self.chunk) {
            found += try await self.sql.raw(
                """
                SELECT * FROM challenges WHERE id IN (\(SQLList(part.map { SQLBind($0.rawValue) }))) ORDER BY id\(unsafeRaw: self.lock)
                """
            ).all().map(Self.challenge(from:))
        }
        return found
    }

    /// Locks these challenges' rows (in id order) without reading them: payouts need the lock, not the rule.
    public func lock(_ ids: some Collection<Challenge.ID>) async throws {
        guard self.tx.dialect == .postgres else { return }
        for part in Set(ids).sorted().chunks(of: Self.chunk) {
            _ = try await self.sql.raw(
                "SELECT id FROM challenges WHERE id IN (\(SQLList(part.map { SQLBind($0.rawValue) }))) ORDER BY id FOR UPDATE"
            ).all()
        }
    }

    public func challenge(joinCode: String) async throws -> Challenge? {
        try await self.sql.raw("SELECT * FROM challenges WHERE join_code = \(bind: joinCode)").first().map(
            Self.challenge(from:)
        )
    }

    /// How many have joined, and the XP in escrow.
    public func tally(of id: Challenge.ID) async throws -> (participants: Int, escrow: Int) {
        let row = try await self.sql.raw(
            "SELECT participant_count, escrow FROM challenges WHERE id = \(bind: id.rawValue)"
        ).first()
        return (
            try row?.decode(column: "participant_count", as: Int.self) ?? 0,
            try row?.decode(column: "escrow", as: Int.self) ?? 0
        )
    }

    /// Moves the participant count and the escrow by these amounts (under the challenge's lock).
    public func adjust(_ id: Challenge.ID, participants: Int, escrow: Int) async throws {
        try await self.sql.raw(
            """
            UPDATE challenges SET participant_count = participant_count + \(bind: participants), escrow = escrow + \(bind: escrow)
            WHERE id = \(bind: id.rawValue)
            """
        ).run()
        try await self.tx.changed(.challenge(id))
    }

    /// Takes these amounts out of the challenges' escrows (payouts, under their locks): one statement for many.
    public func release(escrow amounts: [Challenge.ID: Int]) async throws {
        for part in amounts.sorted(by: { $0.key < $1.key }).chunks(of: Self.chunk) {
            let cases = part.map { id, amount -> SQLQueryString in "WHEN \(bind: id.rawValue) THEN \(bind: amount)" }
            try await self.sql.raw(
                """
                UPDATE challenges SET escrow = escrow - CASE id \(cases.joined(separator: " ")) ELSE 0 END
                WHERE id IN (\(SQLList(part.map { SQLBind($0.key.rawValue) })))
                """
            ).run()
        }
        try await self.tx.changed(amounts.keys.sorted().map { .challenge($0) })
    }

    public func markSettled(_ ids: some Collection<Challenge.ID>, at now: Date) async throws {
        for part in Array(ids).chunks(of: Self.chunk) {
            try await self.sql.raw(
                "UPDATE challenges SET settled_at = \(bind: now) WHERE id IN (\(SQLList(part.map { SQLBind($0.rawValue) })))"
            ).run()
        }
        try await self.tx.changed(ids.map { .challenge($0) })
    }

    public func markCancelled(_ id: Challenge.ID, at now: Date) async throws {
        try await self.sql.raw("UPDATE challenges SET cancelled_at = \(bind: now) WHERE id = \(bind: id.rawValue)")
            .run()
        try await self.tx.changed(.challenge(id))
    }

    /// Counts one more challenge made from the template.
    public func countUse(ofTemplate id: String) async throws {
        try await self.sql.raw(
            """
            INSERT INTO challenge_template_uses (template_id, uses) VALUES (\(bind: id), 1)
            ON CONFLICT (template_id) DO UPDATE SET uses = challenge_template_uses.uses + 1
            """
        ).run()
    }

    /// How many challenges each template made.
    public func templateUses() async throws -> [String: Int] {
        Dictionary(
            uniqueKeysWithValues: try await self.sql.raw("SELECT template_id, uses FROM challenge_template_uses").all()
                .map { row in
                    (
                        try row.decode(column: "template_id", as: String.self),
                        try row.decode(column: "uses", as: Int.self)
                    )
                }
        )
    }

    /// A deleted person leaves their challenges (spec 004 R11.7): the XP they held in escrow goes with
    /// them (their ledger goes too, so the books still balance), and what they made or whom they invited
    /// names nobody.
    public func forget(_ user: User.ID) async throws {
        let touched = try await self.sql.raw(
            """
            SELECT challenge_id AS id FROM challenge_participants WHERE user_id = \(bind: user.rawValue) OR invited_by = \(bind: user.rawValue)
            UNION SELECT id FROM challenges WHERE creator_id = \(bind: user.rawValue)
            """
        ).all()
        try await self.tx.changed(
            try touched.map { .challenge(Challenge.ID(try $0.decode(column: "id", as: String.self))) }
        )
        try await self.sql.raw(
            """
            UPDATE challenges SET
                escrow = escrow - (SELECT p.staked - CASE WHEN p.paid_at IS NULL THEN 0 ELSE p.payout END FROM challenge_participants p
                    WHERE p.challenge_id = challenges.id AND p.user_id = \(bind: user.rawValue)),
                participant_count = participant_count - (SELECT COUNT(*) FROM challenge_participants p
                    WHERE p.challenge_id = challenges.id AND p.user_id = \(bind: user.rawValue) AND p.state = 'joined')
            WHERE id IN (SELECT challenge_id FROM challenge_participants WHERE user_id = \(bind: user.rawValue))
            """
        ).run()
        try await self.sql.raw(
            "UPDATE challenges SET creator_id = \(bind: Self.nobody) WHERE creator_id = \(bind: user.rawValue)"
        ).run()
        try await self.sql.raw(
            "UPDATE challenge_participants SET invited_by = NULL WHERE invited_by = \(bind: user.rawValue)"
        ).run()
    }

    /// Who made a challenge whose creator deleted their account.
    public static let nobody = "deleted"

    // MARK: Participants

    public func participant(_ user: User.ID, in id: Challenge.ID) async throws -> ChallengeParticipant? {
        try await self.sql.raw(
            "SELECT * FROM challenge_participants WHERE challenge_id = \(bind: id.rawValue) AND user_id = \(bind: user.rawValue)"
        ).first().map { try Self.participant(from: $0) }
    }

    public func save(_ participant: ChallengeParticipant) async throws {
        try await self.save([participant])
    }

    /// Writes participants' rows, many in one statement (settlement, payouts).
    public func save(_ participants: [ChallengeParticipant]) async throws {
        for part in participants.chunks(of: Self.chunk) {
            let rows = part.map { participant -> SQLQueryString in
                """
                (\(bind: participant.challengeID.rawValue), \(bind: participant.userID.rawValue), \(bind: participant.state.rawValue),
                \(bind: participant.staked), \(bind: participant.invitedBy?.rawValue), \(bind: participant.updatedAt), \(bind: participant.finalRank),
                \(bind: participant.finalValue), \(bind: participant.won), \(bind: participant.payout), \(bind: participant.paidAt))
                """
            }
            try await self.sql.raw(
                """
                INSERT INTO challenge_participants (challenge_id, user_id, state, staked, invited_by, updated_at, final_rank, final_value, won, payout, paid_at)
                VALUES \(rows.joined(separator: ", "))
                ON CONFLICT (challenge_id, user_id) DO UPDATE SET state = excluded.state, staked = excluded.staked, invited_by = excluded.invited_by,
                    updated_at = excluded.updated_at, final_rank = excluded.final_rank, final_value = excluded.final_value, won = excluded.won,
                    payout = excluded.payout, paid_at = excluded.paid_at
                """
            ).run()
        }
        try await self.tx.changed(Set(participants.map(\.challengeID)).sorted().map { .challenge($0) })
    }

    /// The challenge's participants in `states`, by user id.
    public func participants(of id: Challenge.ID, in states: [ChallengeParticipant.State] = [.joined]) async throws
        -> [ChallengeParticipant]
    {
        try await self.sql.raw(
            """
            SELECT * FROM challenge_participants WHERE challenge_id = \(bind: id.rawValue)
                AND state IN (\(SQLList(states.map { SQLBind($0.rawValue) }))) ORDER BY user_id
            """
        ).all().map { try Self.participant(from: $0) }
    }

    /// The rows of `users` in the challenge, by user.
    public func participants(of id: Challenge.ID, among users: [User.ID]) async throws -> [User.ID:
        ChallengeParticipant]
    {
        guard !users.isEmpty else { return [:] }
        let rows = try await self.sql.raw(
            """
            SELECT * FROM challenge_participants WHERE challenge_id = \(bind: id.rawValue)
                AND user_id IN (\(SQLList(users.map { SQLBind($0.rawValue) })))
            """
        ).all().map { try Self.participant(from: $0) }
        return Dictionary(rows.map { ($0.userID, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The joined participants of each of these challenges, by user id (settlement, many at once).
    public func participants(of ids: some Collection<Challenge.ID>) async throws -> [Challenge.ID:
        [ChallengeParticipant]]
    {
        try await self.rows(of: ids, where: "state = 'joined'")
    }

    /// Those owed a payout not paid yet (after settlement or cancellation) in each of these challenges; only
    /// `among` these people when given (a part of a crowd: by challenge alone, PostgreSQL may choose to read
    /// every row of those people instead).
    public func unpaid(of ids: some Collection<Challenge.ID>, among people: Set<User.ID>? = nil) async throws
        -> [Challenge.ID: [ChallengeParticipant]]
    {
        guard let people else { return try await self.rows(of: ids, where: "payout > 0 AND paid_at IS NULL") }
        guard !people.isEmpty else { return [:] }
        let list = SQLList(people.sorted().map { SQLBind($0.rawValue) })
        return try await self.rows(of: ids, where: "payout > 0 AND paid_at IS NULL AND user_id IN (\(list))")
    }

    /// Who is owed a payout not paid yet in these challenges (whose locks a payout takes first).
    public func owed(in ids: some Collection<Challenge.ID>) async throws -> Set<User.ID> {
        var found: Set<User.ID> = []
        for part in Set(ids).sorted().chunks(of: Self.chunk) {
            for row in try await self.sql.raw(
                """
                SELECT DISTINCT user_id FROM challenge_participants WHERE challenge_id IN (\(SQLList(part.map { SQLBind($0.rawValue) })))
                    AND payout > 0 AND paid_at IS NULL
                """
            ).all() {
                found.insert(User.ID(try row.decode(column: "user_id", as: String.self)))
            }
        }
        return found
    }

    private func rows(of ids: some Collection<Challenge.ID>, where condition: SQLQueryString) async throws
        -> [Challenge.ID: [ChallengeParticipant]]
    {
        var found: [Challenge.ID: [ChallengeParticipant]] = [:]
        for part in Set(ids).sorted().chunks(of: Self.chunk) {
            for row in try await self.sql.raw(
                """
                SELECT * FROM challenge_participants WHERE challenge_id IN (\(SQLList(part.map { SQLBind($0.rawValue) })))
                    AND \(condition) ORDER BY challenge_id, user_id
                """
            ).all() {
                let participant = try Self.participant(from: row)
                found[participant.challengeID, default: []].append(participant)
            }
        }
        return found
    }

    /// The challenges `users` have joined that still take their activities (not settled or cancelled, and
    /// not past their grace period as of `now`).
    public func scoring(_ users: [User.ID], at now: Date) async throws -> [(user: User.ID, challenge: Challenge)] {
        guard !users.isEmpty else { return [] }
        return try await self.sql.raw(
            """
            SELECT c.*, p.user_id AS participant FROM challenge_participants p JOIN challenges c ON c.id = p.challenge_id
            WHERE p.user_id IN (\(SQLList(users.map { SQLBind($0.rawValue) }))) AND p.state = 'joined'
                AND c.settled_at IS NULL AND c.cancelled_at IS NULL AND c.ends_at > \(bind: now.addingTimeInterval(-Challenge.settlementGrace))
            """
        ).all().map { row in
            (User.ID(try row.decode(column: "participant", as: String.self)), try Self.challenge(from: row))
        }
    }

    /// The participants whose zone is `zone` in challenges running at `now`, with their challenge.
    public func running(inZone zone: String, at now: Date) async throws -> [(user: User.ID, challenge: Challenge)] {
        try await self.sql.raw(
            """
            SELECT c.*, p.user_id AS participant FROM users u
            JOIN challenge_participants p ON p.user_id = u.id AND p.state = 'joined'
            JOIN challenges c ON c.id = p.challenge_id
            WHERE u.time_zone = \(bind: zone) AND c.starts_at <= \(bind: now) AND c.ends_at > \(bind: now)
                AND c.settled_at IS NULL AND c.cancelled_at IS NULL
            ORDER BY c.id, p.user_id
            """
        ).all().map { row in
            (User.ID(try row.decode(column: "participant", as: String.self)), try Self.challenge(from: row))
        }
    }

    /// The user's challenges (any state of theirs but declined), newest start first, with their row, a page at
    /// a time: after `last`, the page before's last (its start and id).
    public func challenges(of user: User.ID, after last: InstantKey?, limit: Int) async throws -> [(
        challenge: Challenge, participant: ChallengeParticipant
    )] {
        let after: SQLQueryString =
            last.map { "AND \(self.tx.keyset("c.starts_at", "c.id", after: $0, descending: true))" } ?? ""
        return try await self.sql.raw(
            """
            SELECT c.*, p.challenge_id AS p_challenge_id, p.user_id AS p_user_id, p.state AS p_state, p.staked AS p_staked,
                p.invited_by AS p_invited_by, p.updated_at AS p_updated_at, p.final_rank AS p_final_rank, p.final_value AS p_final_value,
                p.won AS p_won, p.payout AS p_payout, p.paid_at AS p_paid_at
            FROM challenge_participants p JOIN challenges c ON c.id = p.challenge_id
            WHERE p.user_id = \(bind: user.rawValue) AND p.state <> 'declined' \(after)
            ORDER BY c.starts_at DESC, c.id DESC LIMIT \(bind: limit)
            """
        ).all().map { row in (try Self.challenge(from: row), try Self.participant(from: row, prefix: "p_")) }
    }

    /// Public challenges still open to join (not ended, cancelled or full), soonest end first, a page at a
    /// time: after `last`, the page before's last (its end and id).
    public func listed(at now: Date, after last: InstantKey?, limit: Int) async throws -> [Challenge] {
        let after: SQLQueryString =
            last.map { "AND \(self.tx.keyset("ends_at", "id", after: $0, descending: false))" } ?? ""
        return try await self.sql.raw(
            """
            SELECT * FROM challenges WHERE visibility = 'public' AND ends_at > \(bind: now) AND cancelled_at IS NULL AND settled_at IS NULL
                AND participant_count < max_participants \(after)
            ORDER BY ends_at, id LIMIT \(bind: limit)
            """
        ).all().map(Self.challenge(from:))
    }

    /// Every challenge's escrow beside what its participants' rows say is held, for the audit.
    public func escrowBooks() async throws -> [(id: Challenge.ID, escrow: Int, held: Int)] {
        try await self.sql.raw(
            """
            SELECT c.id, c.escrow, COALESCE((SELECT SUM(p.staked - CASE WHEN p.paid_at IS NULL THEN 0 ELSE p.payout END)
                FROM challenge_participants p WHERE p.challenge_id = c.id), 0) AS held
            FROM challenges c ORDER BY c.id
            """
        ).all().map { row in
            (
                Challenge.ID(try row.decode(column: "id", as: String.self)),
                try row.decode(column: "escrow", as: Int.self),
                try row.decode(column: "held", as: Int.self)
            )
        }
    }

    /// Every stake, refund and payout line of the ledger: the challenge (from the line's detail) and the amount.
    public func escrowMovements() async throws -> [(challenge: Challenge.ID, amount: Int)] {
        let decoder = JSONDecoder()
        return try await self.sql.raw(
            "SELECT amount, detail FROM points_ledger WHERE reason IN ('stake', 'stake_refund', 'stake_payout')"
        ).all().map { row in
            let detail = try decoder.decode(
                PointsLine.Detail.self,
                from: Data(try row.decode(column: "detail", as: String.self).utf8)
            )
            return (Challenge.ID(detail.challengeID ?? ""), try row.decode(column: "amount", as: Int.self))
        }
    }

    // MARK: What scores are computed from

    /// The user's live workouts started in `[from, to)`.
    public func workouts(of user: User.ID, from: Date, to: Date) async throws -> [ActivityEvent] {
        try await self.sql.raw(
            """
            SELECT * FROM activity_events WHERE user_id = \(bind: user.rawValue) AND kind = 'workout' AND deleted_at IS NULL
                AND occurred_at >= \(bind: from) AND occurred_at < \(bind: to)
            ORDER BY occurred_at, id
            """
        ).all().map { try Transaction.activity(from: $0).event }
    }

    /// The points the user earned in `[from, to)` (stakes, payouts and refunds are not earnings).
    public func earnings(of user: User.ID, from: Date, to: Date) async throws -> [(
        id: String, amount: Int, at: Date, date: LocalDate
    )] {
        try await self.sql.raw(
            """
            SELECT id, amount, created_at, local_date FROM points_ledger WHERE user_id = \(bind: user.rawValue)
                AND created_at >= \(bind: from) AND created_at < \(bind: to)
                AND reason NOT IN ('stake', 'stake_payout', 'stake_refund')
            ORDER BY seq
            """
        ).all().map { row in
            (
                try row.decode(column: "id", as: String.self), try row.decode(column: "amount", as: Int.self),
                try row.decode(column: "created_at", as: Date.self), try Transaction.date(row, "local_date")
            )
        }
    }

    // MARK: Rows

    static func challenge(from row: any SQLRow) throws -> Challenge {
        Challenge(
            id: Challenge.ID(try row.decode(column: "id", as: String.self)),
            name: try row.decode(column: "name", as: String.self),
            description: try row.decode(column: "description", as: String?.self),
            type: ChallengeType(rawValue: try row.decode(column: "type", as: String.self)) ?? .custom,
            rule: try JSONDecoder().decode(
                ChallengeRule.self,
                from: Data(try row.decode(column: "rule", as: String.self).utf8)
            ),
            visibility: Challenge.Visibility(rawValue: try row.decode(column: "visibility", as: String.self))
                ?? .private,
            joinCode: try row.decode(column: "join_code", as: String.self),
            creatorID: User.ID(try row.decode(column: "creator_id", as: String.self)),
            timeZone: try row.decode(column: "time_zone", as: String.self),
            startsAt: try row.decode(column: "starts_at", as: Date.self),
            endsAt: try row.decode(column: "ends_at", as: Date.self),
            stake: try row.decode(column: "stake", as: Int.self),
            minParticipants: try row.decode(column: "min_participants", as: Int.self),
            maxParticipants: try row.decode(column: "max_participants", as: Int.self),
            templateID: try row.decode(column: "template_id", as: String?.self),
            templateVersion: try row.decode(column: "template_version", as: Int?.self),
            createdAt: try row.decode(column: "created_at", as: Date.self),
            settledAt: try row.decode(column: "settled_at", as: Date?.self),
            cancelledAt: try row.decode(column: "cancelled_at", as: Date?.self)
        )
    }

    static func participant(from row: any SQLRow, prefix: String = "") throws -> ChallengeParticipant {
        ChallengeParticipant(
            challengeID: Challenge.ID(try row.decode(column: prefix + "challenge_id", as: String.self)),
            userID: User.ID(try row.decode(column: prefix + "user_id", as: String.self)),
            state: ChallengeParticipant.State(rawValue: try row.decode(column: prefix + "state", as: String.self))
                ?? .invited,
            staked: try row.decode(column: prefix + "staked", as: Int.self),
            invitedBy: try row.decode(column: prefix + "invited_by", as: String?.self).map(User.ID.init),
            updatedAt: try row.decode(column: prefix + "updated_at", as: Date.self),
            finalRank: try row.decode(column: prefix + "final_rank", as: Int?.self),
            finalValue: try row.decode(column: prefix + "final_value", as: Double?.self),
            won: try row.decode(column: prefix + "won", as: Bool.self),
            payout: try row.decode(column: prefix + "payout", as: Int.self),
            paidAt: try row.decode(column: prefix + "paid_at", as: Date?.self)
        )
    }
}
