public import FitCircleCore
public import Foundation
import SQLKit

extension Transaction {
    /// The queries of A/B tests (`experiments`, `experiment_exposures`).
    public var experiments: ExperimentQueries { ExperimentQueries(tx: self) }
}

/// Experiments, the first exposure of each of their people, and the counts their read-out is made of.
public struct ExperimentQueries: Sendable {
    let tx: Transaction

    private var sql: any SQLDatabase { self.tx.sql }

    /// Saves `experiment` as it now is (a new one, or a change of state or rollout).
    public func save(_ experiment: Experiment, at now: Date) async throws {
        try await self.sql.raw(
            """
            INSERT INTO experiments (id, name, description, variants, state, rollout_percent, created_at, started_at, stopped_at, updated_at)
            VALUES (\(bind: experiment.id.rawValue), \(bind: experiment.name), \(bind: experiment.description), \(bind: try Transaction.json(experiment.variants)),
                \(bind: experiment.state.rawValue), \(bind: experiment.rolloutPercent), \(bind: experiment.createdAt), \(bind: experiment.startedAt),
                \(bind: experiment.stoppedAt), \(bind: now))
            ON CONFLICT (id) DO UPDATE SET state = excluded.state, rollout_percent = excluded.rollout_percent,
                started_at = excluded.started_at, stopped_at = excluded.stopped_at, updated_at = excluded.updated_at
            """
        ).run()
    }

    public func experiment(_ id: Experiment.ID) async throws -> Experiment? {
        try await self.sql.raw("SELECT * FROM experiments WHERE id = \(bind: id.rawValue)").first().map(
            Self.experiment(from:)
        )
    }

    public func experiment(named name: String) async throws -> Experiment? {
        try await self.sql.raw("SELECT * FROM experiments WHERE name = \(bind: name)").first().map(
            Self.experiment(from:)
        )
    }

    /// Every experiment, newest first.
    public func all() async throws -> [Experiment] {
        try await self.sql.raw("SELECT * FROM experiments ORDER BY created_at DESC, id").all().map(
            Self.experiment(from:)
        )
    }

    /// The experiments whose variants apply now (running) or may again (paused).
    public func live() async throws -> [Experiment] {
        try await self.sql.raw("SELECT * FROM experiments WHERE state IN ('running', 'paused') ORDER BY created_at, id")
            .all().map(Self.experiment(from:))
    }

    /// Records that `user` first met `variant` of `experiment` on `date` (their local day); a later
    /// exposure changes nothing.
    public func expose(_ user: User.ID, to experiment: Experiment.ID, variant: String, on date: LocalDate, at now: Date)
        async throws
    {
        try await self.sql.raw(
            """
            INSERT INTO experiment_exposures (experiment_id, user_id, variant, exposed_at, local_date, day7, day30)
            VALUES (\(bind: experiment.rawValue), \(bind: user.rawValue), \(bind: variant), \(bind: now), \(bind: date.iso),
                \(bind: date.adding(days: 7).iso), \(bind: date.adding(days: 30).iso))
            ON CONFLICT (experiment_id, user_id) DO NOTHING
            """
        ).run()
    }

    /// The variant `user` was first exposed to, if any.
    public func exposure(of user: User.ID, in experiment: Experiment.ID) async throws -> (
        variant: String, date: LocalDate
    )? {
        guard
            let row = try await self.sql.raw(
                "SELECT variant, local_date FROM experiment_exposures WHERE experiment_id = \(bind: experiment.rawValue) AND user_id = \(bind: user.rawValue)"
            ).first()
        else { return nil }
        return (try row.decode(column: "variant", as: String.self), try Transaction.date(row, "local_date"))
    }

    // MARK: The read-out, each count grouped by variant

    /// People exposed, per variant.
    public func exposed(in experiment: Experiment.ID) async throws -> [String: Int] {
        try await self.counts(
            "SELECT variant, COUNT(*) AS n, 0 AS hits FROM experiment_exposures WHERE experiment_id = \(bind: experiment.rawValue) GROUP BY variant"
        ).mapValues(\.trials)
    }

    /// Of the people whose `day` (`day7` or `day30`) is over by `through`, how many were active on it.
    public func retention(in experiment: Experiment.ID, day: RetentionDay, through: LocalDate) async throws -> [String:
        Proportion]
    {
        try await self.counts(
            """
            SELECT e.variant, COUNT(*) AS n, COALESCE(SUM(CASE WHEN EXISTS (
                SELECT 1 FROM analytics_events a WHERE a.user_id = e.user_id AND a.local_date = e.\(unsafeRaw: day.rawValue)
                AND \(MetricQueries.activeEvent("a"))) THEN 1 ELSE 0 END), 0) AS hits
            FROM experiment_exposures e
            WHERE e.experiment_id = \(bind: experiment.rawValue) AND e.\(unsafeRaw: day.rawValue) <= \(bind: through.iso)
            GROUP BY e.variant
            """
        )
    }

    public enum RetentionDay: String, Sendable {
        case day7, day30
    }

    /// The daily goals of the exposed from their exposure day to `through`: how many, and how many met,
    /// pooled over the people who had them.
    public func dailyGoals(in experiment: Experiment.ID, through: LocalDate) async throws -> [String: Proportion] {
        try await self.pooled(
            """
            SELECT e.variant, COUNT(*) AS n, COUNT(g.completed_at) AS hits
            FROM experiment_exposures e JOIN goals g ON g.user_id = e.user_id
            WHERE e.experiment_id = \(bind: experiment.rawValue) AND g.span = 'daily' AND g.period >= e.local_date AND g.period <= \(bind: through.iso)
            GROUP BY e.variant, e.user_id
            """
        )
    }

    /// The streak periods the exposed missed from their exposure day on: how many, and how many a freeze
    /// covered, pooled over the people who missed.
    public func streakMisses(in experiment: Experiment.ID, through: LocalDate) async throws -> [String: Proportion] {
        try await self.pooled(
            """
            SELECT e.variant, COUNT(*) AS n, COALESCE(SUM(CASE WHEN s.status = 'frozen' THEN 1 ELSE 0 END), 0) AS hits
            FROM experiment_exposures e JOIN streak_entries s ON s.user_id = e.user_id
            WHERE e.experiment_id = \(bind: experiment.rawValue) AND s.period >= e.local_date AND s.period <= \(bind: through.iso)
                AND s.status IN ('frozen', 'missed', 'reset')
            GROUP BY e.variant, e.user_id
            """
        )
    }

    /// The exposed people who switched every channel off after their exposure, per variant.
    public func optOuts(in experiment: Experiment.ID) async throws -> [String: Set<User.ID>] {
        let rows = try await self.sql.raw(
            """
            SELECT e.variant, a.user_id, a.properties FROM experiment_exposures e
            JOIN analytics_events a ON a.user_id = e.user_id AND a.name = \(bind: ServerEvent.preferenceChanged.rawValue) AND a.local_date >= e.local_date
            WHERE e.experiment_id = \(bind: experiment.rawValue)
            """
        ).all()
        var found: [String: Set<User.ID>] = [:]
        for row in rows {
            let properties = try JSONDecoder().decode(
                [String: EventValue].self,
                from: Data(try row.decode(column: "properties", as: String.self).utf8)
            )
            guard properties["allOff"] == .boolean(true) else { continue }
            found[try row.decode(column: "variant", as: String.self), default: []].insert(
                User.ID(try row.decode(column: "user_id", as: String.self))
            )
        }
        return found
    }

    /// Rows of a variant's people, each with its `n` and `hits`, pooled per variant.
    private func pooled(_ query: SQLQueryString) async throws -> [String: Proportion] {
        var people: [String: [Proportion]] = [:]
        for row in try await self.sql.raw(query).all() {
            people[try row.decode(column: "variant", as: String.self), default: []].append(
                Proportion(try row.decode(column: "hits", as: Int.self), of: try row.decode(column: "n", as: Int.self))
            )
        }
        return people.mapValues { Proportion(pooling: $0) }
    }

    private func counts(_ query: SQLQueryString) async throws -> [String: Proportion] {
        var counts: [String: Proportion] = [:]
        for row in try await self.sql.raw(query).all() {
            counts[try row.decode(column: "variant", as: String.self)] = Proportion(
                try row.decode(column: "hits", as: Int.self),
                of: try row.decode(column: "n", as: Int.self)
            )
        }
        return counts
    }

    private static func experiment(from row: any SQLRow) throws -> Experiment {
        Experiment(
            id: Experiment.ID(try row.decode(column: "id", as: String.self)),
            name: try row.decode(column: "name", as: String.self),
            description: try row.decode(column: "description", as: String.self),
            variants: try JSONDecoder().decode(
                [ExperimentVariant].self,
                from: Data(try row.decode(column: "variants", as: String.self).utf8)
            ),
            state: Experiment.State(rawValue: try row.decode(column: "state", as: String.self)) ?? .stopped,
            rolloutPercent: try row.decode(column: "rollout_percent", as: Int.self),
            createdAt: try row.decode(column: "created_at", as: Date.self),
            startedAt: try row.decode(column: "started_at", as: Date?.self),
            stoppedAt: try row.decode(column: "stopped_at", as: Date?.self)
        )
    }
}
