import FitCircleCore
import FitCircleStore
import Foundation

/// New inputs that count for streaks move them: each user's streak is refreshed from the earliest day that
/// changed, its move told to analytics (`streak_updated`), and a milestone reached in the open period is news
/// for the member's circles and for the member (`streak_milestone`, spec 000 Flow 1 day 7), once.
struct StreakMoves: IngestReaction {
    let streaks: StreakKeeper
    let profile: RuleProfile
    let ids: IDGenerator

    func react(to ingested: inout Ingested, in tx: Transaction) async throws {
        let now = ingested.now
        var changes: [User.ID: LocalDate] = [:]
        for event in ingested.created where self.streaks.matters(event.payload) {
            changes[event.userID] = min(changes[event.userID] ?? event.localDate, event.localDate)
        }
        for (user, changedFrom) in changes.sorted(by: { $0.key < $1.key }) {
            guard let account = ingested.users[user] else { continue }
            let view = try await self.streaks.refresh(account, in: tx, now: now, changedFrom: changedFrom)
            var state = view.state
            state.longest = view.standing.longest
            ingested.streaks[user] = state
            ingested.analytics.append(
                .server(
                    .streakUpdated,
                    key: "\(view.period.iso):\(view.standing.current)",
                    of: account,
                    at: now,
                    properties: [
                        "current": .integer(view.standing.current), "longest": .integer(view.standing.longest),
                    ]
                )
            )
            guard view.standing.met,
                let milestone = view.policy.milestones.first(where: { $0.count == view.standing.current })
            else { continue }
            let news = Circles.News(
                user: user,
                kind: .streakMilestone,
                subject: "\(view.standing.current)",
                key: "streak:\(view.standing.current):\(view.period.iso)"
            )
            let celebration = NotificationCandidate(
                type: .streakMilestone,
                dedupeKey: "streak_milestone:\(milestone.count):\(view.period.iso)",
                data: ["streak": "\(milestone.count)", "badge": milestone.badge]
            )
            try await tx.enqueue(
                [try Circles.posting(news, ids: self.ids, at: now)]
                    + [
                        try Notifications.raising(
                            celebration,
                            for: user,
                            catalog: self.profile.notifications,
                            ids: self.ids,
                            at: now
                        )
                    ].compactMap { $0 },
                at: now
            )
            ingested.analytics.append(
                .server(
                    .streakMilestone,
                    key: "\(milestone.count):\(view.period.iso)",
                    of: account,
                    at: now,
                    properties: ["streak": .integer(milestone.count), "badge": .string(milestone.badge)]
                )
            )
        }
    }
}
