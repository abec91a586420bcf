public import FitCircleCore
public import FitCircleStore
import Foundation

/// Finding people (spec 004, R15): by the start of a word of their name, or by their exact address.
extension Friends {
    /// Someone a search found, as the searcher may see them.
    public struct Found: Equatable, Sendable {
        public var userID: User.ID
        public var displayName: String
        /// Whether their photo is the searcher's to see (`ProfileAccess`).
        public var showsPhoto: Bool
        public var pending: FriendEdge.Pending?
    }

    /// How many index entries one search reads at most: someone may match by several words, and results
    /// the policy hides are skipped, so a page of 20 may take more than 20 entries — but never the index.
    /// A batch is a page and a little more (those skipped), so that a search usually reads one batch of
    /// entries and their accounts and no more (issue 42: the entries read, not the probes, were its cost).
    static let searchBatch = 25
    static let searchBatches = 20

    /// At most 20 people matching `query`, leaving out the caller, their friends (R15.3), and anyone the
    /// policy hides from them or they blocked.
    public func search(_ query: NameSearch.Query, by user: User.ID) async throws -> [Found] {
        try await self.store.read { tx in
            var kept: [(term: String, person: PersonFound)] = []
            var seen: Set<User.ID> = []
            func keep(_ person: PersonFound, by term: String) {
                guard seen.insert(person.userID).inserted, person.userID != user, !person.edge.areFriends,
                    !person.edge.blockedByMe,
                    FriendAccess.decide(.find, isSelf: false, person.edge) == .allowed,
                    kept.count < NameSearch.maximumResults
                else { return }
                kept.append((term, person))
            }
            switch query {
            case .email(let address):
                for person in try await tx.search.people(withEmail: address, seenBy: user) { keep(person, by: address) }
            case .name(let prefix):
                var cursor: (term: String, user: User.ID)?
                for _ in 0..<Self.searchBatches where kept.count < NameSearch.maximumResults {
                    let page = try await tx.search.people(
                        matching: prefix,
                        after: cursor,
                        limit: Self.searchBatch,
                        seenBy: user
                    )
                    for (term, person) in page { keep(person, by: term) }
                    guard page.count == Self.searchBatch, let last = page.last else { break }
                    cursor = (last.term, last.person.userID)
                }
            }
            // The closest matches first (the shortest term with the prefix), then by name.
            kept.sort {
                ($0.term, $0.person.displayName.lowercased(), $0.person.userID) < (
                    $1.term, $1.person.displayName.lowercased(), $1.person.userID
                )
            }
            return kept.map(\.person).map { person in
                // Friends are never found, and no audience asks whether the two share a circle.
                let relationship = ProfileAccess.Relationship(isSelf: false, blocked: person.edge.blockedByThem)
                return Found(
                    userID: person.userID,
                    displayName: person.displayName,
                    showsPhoto: ProfileAccess.mayView(photo: person.photo, relationship),
                    pending: person.edge.pending
                )
            }
        }
    }
}
