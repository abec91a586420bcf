import FitCircleCore
import FitCircleStore
import Foundation

/// Each user's habitual time (spec 001, NOTIF-03): the median local time of their last 14–28 check-ins and
/// workouts, kept on their row as those come and go, so the daily planner reads it with the user instead of
/// reading everyone's history at 00:10.
enum SendHabits {
    static let kinds: [ActivityKind] = [.checkIn, .workout]

    static func matters(_ payload: ActivityPayload) -> Bool { Self.kinds.contains(payload.kind) }

    /// The habits the events make now (read 1,000 users a statement, within any database's bind limit).
    static func replayed(for users: [User.ID], in tx: Transaction) async throws -> [User.ID: LocalTime?] {
        var habits: [User.ID: LocalTime?] = [:]
        for start in stride(from: 0, to: users.count, by: 1_000) {
            let chunk = Array(users[start..<min(start + 1_000, users.count)])
            let instants = try await tx.reminders.recentInstants(
                of: chunk,
                kinds: Self.kinds,
                limit: SendTime.maximumSamples
            )
            for user in chunk {
                let times = (instants[user] ?? []).compactMap { instant in
                    TimeZone(identifier: instant.timeZone).map { LocalTime(instant.occurredAt, in: $0) }
                }
                habits[user] = SendTime.habitual(times)
            }
        }
        return habits
    }

    static func refresh(_ users: Set<User.ID>, in tx: Transaction) async throws {
        guard !users.isEmpty else { return }
        try await tx.reminders.saveSendHabits(try await Self.replayed(for: users.sorted(), in: tx))
    }
}

/// New check-ins and workouts move their users' habitual times.
struct HabitRefresh: IngestReaction {
    func react(to ingested: inout Ingested, in tx: Transaction) async throws {
        try await SendHabits.refresh(
            Set(ingested.created.filter { SendHabits.matters($0.payload) }.map(\.userID)),
            in: tx
        )
    }
}
