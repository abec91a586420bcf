public import FitCircleCore
public import Foundation
import SQLKit

extension Transaction {
    /// The queries of kudos between friends (`kudos`).
    public var kudos: KudosQueries { KudosQueries(tx: self) }
}

public struct KudosQueries: Sendable {
    let tx: Transaction

    private var sql: any SQLDatabase { self.tx.sql }

    /// Records `giver`'s kudos to `receiver`; one they already gave stays as it was.
    public func give(from giver: User.ID, to receiver: User.ID, at now: Date) async throws {
        try await self.sql.raw(
            """
            INSERT INTO kudos (receiver_id, giver_id, given_at) VALUES (\(bind: receiver.rawValue), \(bind: giver.rawValue), \(bind: now))
            ON CONFLICT (receiver_id, giver_id) DO NOTHING
            """
        ).run()
    }

    /// Takes `giver`'s kudos to `receiver` back, if there was one.
    public func takeBack(from giver: User.ID, to receiver: User.ID) async throws {
        try await self.sql.raw(
            "DELETE FROM kudos WHERE receiver_id = \(bind: receiver.rawValue) AND giver_id = \(bind: giver.rawValue)"
        ).run()
    }

    /// How many kudos `receiver` has, and whether `viewer` gave one of them.
    public func tally(of receiver: User.ID, seenBy viewer: User.ID) async throws -> KudosTally {
        let row = try await self.sql.raw(
            """
            SELECT COUNT(*) AS n, COALESCE(SUM(CASE WHEN giver_id = \(bind: viewer.rawValue) THEN 1 ELSE 0 END), 0) AS mine
            FROM kudos WHERE receiver_id = \(bind: receiver.rawValue)
            """
        ).first()
        return KudosTally(
            count: try row?.decode(column: "n", as: Int.self) ?? 0,
            givenByViewer: try row?.decode(column: "mine", as: Int.self) ?? 0 > 0
        )
    }
}
