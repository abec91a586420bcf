public import FitCircleCore
import FitCircleStore

/// Kudos between friends: one per friend on a person's page, given, taken back and counted
/// (`KudosAccess` decides who may).
public struct Kudos: Sendable {
    let context: EngineContext

    /// How many kudos `person` has, and whether `viewer` gave one.
    public func tally(of person: User.ID, seenBy viewer: User.ID) async throws -> KudosTally {
        try await self.context.store.read { tx in
            try await Self.require(.view, of: person, by: viewer, in: tx)
            return try await tx.kudos.tally(of: person, seenBy: viewer)
        }
    }

    /// Gives `person` the caller's kudos (again: no change) and answers the tally after.
    public func give(to person: User.ID, by giver: User.ID) async throws -> KudosTally {
        try await self.context.store.transaction { tx in
            try await Self.require(.give, of: person, by: giver, in: tx)
            try await tx.kudos.give(from: giver, to: person, at: self.context.clock.now())
            return try await tx.kudos.tally(of: person, seenBy: giver)
        }
    }

    /// Takes the caller's kudos back (none given: no change) and answers the tally after.
    public func takeBack(from person: User.ID, by giver: User.ID) async throws -> KudosTally {
        try await self.context.store.transaction { tx in
            try await Self.require(.give, of: person, by: giver, in: tx)
            try await tx.kudos.takeBack(from: giver, to: person)
            return try await tx.kudos.tally(of: person, seenBy: giver)
        }
    }

    private static func require(
        _ action: KudosAccess.Action,
        of person: User.ID,
        by caller: User.ID,
        in tx: Transaction
    ) async throws {
        guard try await tx.users.find(person) != nil else {
            throw DomainError.notFound(resource: "user", id: person.rawValue)
        }
        let standing = try await Profiles.standing(of: caller, to: person, in: tx)
        try KudosAccess.decide(action, standing.relationship).require("user", person.rawValue)
    }
}
