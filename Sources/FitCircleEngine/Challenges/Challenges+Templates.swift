public import FitCircleCore
import FitCircleStore
import Foundation

/// The rule profile's challenge templates (spec 002 §1) as a user browses them: those offered on their
/// today (seasonal ones in their months), with how many challenges each has made, most used first.
extension Challenges {
    public struct TemplateView: Equatable, Sendable {
        public var template: ChallengeTemplate
        public var popularity: Int
    }

    public func templates(for user: User.ID, category: ChallengeTemplate.Category? = nil) async throws -> [TemplateView]
    {
        let now = self.clock.now()
        let (uses, zone) = try await self.store.read { tx in
            (try await tx.challenges.templateUses(), try await tx.users.find(user)?.profile.timeZone)
        }
        let today = LocalDate(now, in: TimeZone(identifier: zone ?? "UTC") ?? .gmt)
        return self.profile.challengeTemplates
            .filter { $0.isOffered(on: today) && (category == nil || $0.category == category) }
            .map { TemplateView(template: $0, popularity: uses[$0.id] ?? 0) }
            .enumerated().sorted { ($1.element.popularity, $0.offset) < ($0.element.popularity, $1.offset) }.map(
                \.element
            )
    }
}
