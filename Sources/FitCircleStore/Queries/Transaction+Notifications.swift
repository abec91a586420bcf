public import FitCircleCore
public import Foundation
import SQLKit

extension Transaction {
    /// The user's notification preferences; nil for an account created before they were stored at sign-up.
    public func notificationPreferences(of user: User.ID) async throws -> NotificationPreferences? {
        try await self.sql.raw("SELECT preferences FROM notification_preferences WHERE user_id = \(bind: user.rawValue)").first().map {
            try JSONDecoder().decode(NotificationPreferences.self, from: Data(try $0.decode(column: "preferences", as: String.self).utf8))
        }
    }

    public func save(_ preferences: NotificationPreferences, of user: User.ID, at now: Date) async throws {
        try await self.sql.raw(
            """
            INSERT INTO notification_preferences (user_id, preferences, updated_at)
            VALUES (\(bind: user.rawValue), \(bind: try Self.json(preferences)), \(bind: now))
            ON CONFLICT (user_id) DO UPDATE SET preferences = excluded.preferences, updated_at = excluded.updated_at
            """
        ).run()
    }
}
