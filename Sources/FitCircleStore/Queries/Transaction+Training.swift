public import FitCircleCore
public import Foundation
import SQLKit

extension Transaction {
    /// The queries of training settings.
    public var training: TrainingQueries { TrainingQueries(tx: self) }
}

public struct TrainingQueries: Sendable {
    let tx: Transaction

    private var sql: any SQLDatabase { self.tx.sql }

    /// The user's training settings, if onboarding or the settings screen saved any.
    public func settings(of user: User.ID) async throws -> TrainingSettings? {
        try await self.sql.raw("SELECT settings FROM training_settings WHERE user_id = \(bind: user.rawValue)").first()
            .map {
                try JSONDecoder().decode(
                    TrainingSettings.self,
                    from: Data(try $0.decode(column: "settings", as: String.self).utf8)
                )
            }
    }

    public func save(_ settings: TrainingSettings, of user: User.ID, at now: Date) async throws {
        try await self.sql.raw(
            """
            INSERT INTO training_settings (user_id, settings, updated_at)
            VALUES (\(bind: user.rawValue), \(bind: try Transaction.json(settings)), \(bind: now))
            ON CONFLICT (user_id) DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at
            """
        ).run()
    }
}
