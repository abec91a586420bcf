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

        static func of(_ viewer: User.ID, for audiences: [Audience], in tx: Transaction) async throws -> Naming {
            Naming(viewer: viewer, friends: audiences.contains(.friends) ? try await tx.friendIDs(of: viewer) : [])
        }

        static func of(_ viewer: User.ID, for audiences: [Audience], store: Store) async throws -> Naming {
            guard audiences.contains(.friends) else { return Naming(viewer: viewer, friends: []) }
            return try await store.read { tx in try await Self.of(viewer, for: audiences, in: tx) }
        }

        func relationship(to user: User.ID) -> ProfileAccess.Relationship {
            ProfileAccess.Relationship(isSelf: user == self.viewer, isFriend: self.friends.contains(user), sharesCircle: true)
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

        /// A feed row as the viewer reads it: its text and name as the actor is named to them.
        func shown(_ row: FeedRow) -> FeedRow {
            var row = row
            let name = self.name(of: row.item.actorID, row.actorName, audience: row.actorNameAudience)
            row.item = row.item.naming(name ?? ProfileAccess.anonymousMember)
            row.actorName = name ?? ProfileAccess.anonymousMember
            row.anonymous = name == nil
            if name == nil || !ProfileAccess.mayView(photo: row.actorPhoto, self.relationship(to: row.item.actorID)) { row.actorPhoto = nil }
            return row
        }
    }
}
