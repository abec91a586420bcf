public import FitCircleCore
public import FitCircleStore
import Foundation

extension Circles {
    /// How one viewer sees the people of a circle's boards, feed and member list: each by name or as
    /// "A member" (`ProfileAccess.boardName`), with a photo where its audience allows and the name is shown.
    /// Everyone there shares the circle; whether they are the viewer's friends is read only when some
    /// audience asks.
    struct Naming {
        let viewer: User.ID
        let friends: Set<User.ID>
        /// Those who blocked the viewer: "A member" to them, without a photo or a weight, whatever their
        /// audiences say (a block acts everywhere).
        let blockers: Set<User.ID>

        static func of(_ viewer: User.ID, for audiences: [Audience], in tx: Transaction) async throws -> Naming {
            Naming(
                viewer: viewer,
                friends: audiences.contains(.friends) ? try await tx.friends.ids(of: viewer) : [],
                blockers: try await tx.friends.blockers(of: viewer)
            )
        }

        /// The same from this node's memory (a warm board read runs no SQL); the friends only when some
        /// audience asks.
        static func of(_ viewer: User.ID, for audiences: [Audience], store: Store) async throws -> Naming {
            let blockers = try await store.cachedBlockers(of: viewer)
            guard audiences.contains(.friends) else { return Naming(viewer: viewer, friends: [], blockers: blockers) }
            return Naming(viewer: viewer, friends: try await store.cachedFriendIDs(of: viewer), blockers: blockers)
        }

        func relationship(to user: User.ID) -> ProfileAccess.Relationship {
            ProfileAccess.Relationship(
                isSelf: user == self.viewer,
                isFriend: self.friends.contains(user),
                sharesCircle: true,
                blocked: self.blockers.contains(user)
            )
        }

        /// The name the viewer sees, or nil for "A member".
        func name(of user: User.ID, _ name: String, audience: Audience) -> String? {
            ProfileAccess.boardName(name, audience: audience, self.relationship(to: user))
        }

        func shown(_ person: BoardPerson?, _ user: User.ID) -> (name: String, anonymous: Bool, hasPhoto: Bool) {
            guard let person, let name = self.name(of: user, person.name, audience: person.nameAudience) else {
                return (ProfileAccess.anonymousMember, true, false)
            }
            return (name, false, ProfileAccess.mayView(photo: person.photo, self.relationship(to: user)))
        }

        /// A board value as the viewer reads it: on boards of kilograms lost, the kilograms only where the
        /// member's weight audience reaches the viewer (`ProfileAccess.mayViewWeightLost`), and the share of
        /// their goal always; other values as they are.
        func shown(
            _ value: Double?,
            on measure: BoardMeasure,
            of person: BoardPerson?,
            _ user: User.ID,
            membership: CircleMembership?
        ) -> (value: Double?, percentOfGoal: Double?) {
            guard measure.revealsWeight, let value else { return (value, nil) }
            let percent = BoardScore.goalPercent(ofKilogramsLost: value, membership: membership)
            guard let person,
                ProfileAccess.mayViewWeightLost(weightAudience: person.weightAudience, self.relationship(to: user))
            else {
                return (nil, percent)
            }
            return (value, percent)
        }

        /// The audiences a board's rows are shown by: names and photos, and weights where values are kilograms.
        static func audiences(of people: some Collection<BoardPerson>, on measure: BoardMeasure) -> [Audience] {
            people.flatMap {
                [$0.nameAudience] + ($0.photo.map { [$0.audience] } ?? [])
                    + (measure.revealsWeight ? [$0.weightAudience] : [])
            }
        }

        /// A feed row as the viewer reads it: its text and name as the actor is named to them.
        func shown(_ row: FeedRow) -> FeedRow {
            var row = row
            let name = self.name(of: row.item.actorID, row.actorName, audience: row.actorNameAudience)
            row.item = row.item.naming(name ?? ProfileAccess.anonymousMember)
            row.actorName = name ?? ProfileAccess.anonymousMember
            row.anonymous = name == nil
            if name == nil || !ProfileAccess.mayView(photo: row.actorPhoto, self.relationship(to: row.item.actorID)) {
                row.actorPhoto = nil
            }
            return row
        }
    }
}
