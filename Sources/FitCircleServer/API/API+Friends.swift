import FitCircleAPI
import FitCircleCore
import FitCircleEngine
import Foundation
import OpenAPIRuntime

extension API {
    func listFriends(_ input: Operations.ListFriends.Input) async throws -> Operations.ListFriends.Output {
        let (friends, next) = try await self.engine.friends.friends(
            of: try RequestCaller.required().userID,
            after: try input.query.cursor.map { User.ID(try PageCursor.id($0, of: .friends)) },
            limit: input.query.limit ?? 100
        )
        return .ok(
            .init(
                body: .json(
                    .init(
                        items: friends.map(Components.Schemas.Friend.init),
                        nextCursor: next.map { PageCursor.encode(.friends, $0.rawValue) }
                    )
                )
            )
        )
    }

    func requestFriend(_ input: Operations.RequestFriend.Input) async throws -> Operations.RequestFriend.Output {
        guard case .json(let body) = input.body else { throw ValidationError(field: "userId", reason: "is required") }
        let outcome = try await self.engine.friends.request(
            User.ID(body.userId),
            by: try RequestCaller.required().userID
        )
        return .ok(.init(body: .json(.init(userId: body.userId, status: outcome == .friends ? .friends : .requested))))
    }

    func acceptFriendRequest(_ input: Operations.AcceptFriendRequest.Input) async throws
        -> Operations.AcceptFriendRequest.Output
    {
        guard case .json(let body) = input.body else { throw ValidationError(field: "userId", reason: "is required") }
        try await self.engine.friends.accept(User.ID(body.userId), by: try RequestCaller.required().userID)
        return .noContent(.init())
    }

    func declineFriendRequest(_ input: Operations.DeclineFriendRequest.Input) async throws
        -> Operations.DeclineFriendRequest.Output
    {
        guard case .json(let body) = input.body else { throw ValidationError(field: "userId", reason: "is required") }
        try await self.engine.friends.decline(User.ID(body.userId), by: try RequestCaller.required().userID)
        return .noContent(.init())
    }

    func listFriendRequests(_ input: Operations.ListFriendRequests.Input) async throws
        -> Operations.ListFriendRequests.Output
    {
        let incoming = input.query.direction != .outgoing
        let list: PageCursor.List = incoming ? .incomingRequests : .outgoingRequests
        let page = try await self.engine.friends.requests(
            of: try RequestCaller.required().userID,
            incoming: incoming,
            after: try input.query.cursor.map { try InstantCursor.decode($0, of: list) },
            limit: input.query.limit ?? Friends.peoplePageSize
        )
        return .ok(
            .init(
                body: .json(
                    .init(
                        items: page.items.map(Components.Schemas.Person.init),
                        nextCursor: page.next.map { InstantCursor.encode(list, $0) }
                    )
                )
            )
        )
    }

    func cancelFriendRequest(_ input: Operations.CancelFriendRequest.Input) async throws
        -> Operations.CancelFriendRequest.Output
    {
        try await self.engine.friends.cancel(User.ID(input.path.userId), by: try RequestCaller.required().userID)
        return .noContent(.init())
    }

    func listBlockedUsers(_ input: Operations.ListBlockedUsers.Input) async throws -> Operations.ListBlockedUsers.Output
    {
        let page = try await self.engine.friends.blocked(
            by: try RequestCaller.required().userID,
            after: try input.query.cursor.map { try InstantCursor.decode($0, of: .blocks) },
            limit: input.query.limit ?? Friends.peoplePageSize
        )
        return .ok(
            .init(
                body: .json(
                    .init(
                        items: page.items.map(Components.Schemas.Person.init),
                        nextCursor: page.next.map { InstantCursor.encode(.blocks, $0) }
                    )
                )
            )
        )
    }

    func blockUser(_ input: Operations.BlockUser.Input) async throws -> Operations.BlockUser.Output {
        guard case .json(let body) = input.body else { throw ValidationError(field: "userId", reason: "is required") }
        try await self.engine.friends.block(User.ID(body.userId), by: try RequestCaller.required().userID)
        return .noContent(.init())
    }

    func unblockUser(_ input: Operations.UnblockUser.Input) async throws -> Operations.UnblockUser.Output {
        try await self.engine.friends.unblock(User.ID(input.path.userId), by: try RequestCaller.required().userID)
        return .noContent(.init())
    }

    func removeFriend(_ input: Operations.RemoveFriend.Input) async throws -> Operations.RemoveFriend.Output {
        try await self.engine.friends.remove(User.ID(input.path.userId), by: try RequestCaller.required().userID)
        return .noContent(.init())
    }

    func searchUsers(_ input: Operations.SearchUsers.Input) async throws -> Operations.SearchUsers.Output {
        let caller = try RequestCaller.required().userID
        guard input.query.q.utf8.count <= 320 else {
            throw ProblemDocument.badQuery(FieldViolation(field: "q", reason: "must be at most 320 bytes"))
        }
        guard let query = NameSearch.query(input.query.q) else {
            throw ProblemDocument.badQuery(
                FieldViolation(
                    field: "q",
                    reason:
                        "must have at least \(NameSearch.minimumQueryLength) letters or digits; nothing was searched"
                )
            )
        }
        let found = try await self.engine.friends.search(query, by: caller)
        return .ok(.init(body: .json(.init(items: found.map(Components.Schemas.PersonFound.init)))))
    }
}

extension API {
    func getFriendFeed(_ input: Operations.GetFriendFeed.Input) async throws -> Operations.GetFriendFeed.Output {
        let caller = try RequestCaller.required().userID
        let limit = input.query.limit ?? Friends.feedPageSize
        guard (1...100).contains(limit) else {
            throw ValidationError(field: "limit", reason: "must be between 1 and 100")
        }
        let cursor = try input.query.cursor.map(ActivityCursor.decode)
        let entries = try await self.engine.friends.feed(
            of: caller,
            type: input.query._type.map(mapped),
            before: cursor.map { ($0.occurredAt, $0.id) },
            limit: limit
        )
        return .ok(.init(body: .json(try .init(entries, limit: limit))))
    }

    func getFeedItem(_ input: Operations.GetFeedItem.Input) async throws -> Operations.GetFeedItem.Output {
        let entry = try await self.engine.friends.feedItem(
            ActivityEvent.ID(input.path.activityId),
            seenBy: try RequestCaller.required().userID
        )
        guard let item = try Components.Schemas.FriendFeedItem(entry) else {
            throw DomainError.notFound(resource: "workout", id: input.path.activityId)
        }
        return .ok(.init(body: .json(item)))
    }

    func streamFriendFeed(_ input: Operations.StreamFriendFeed.Input) async throws -> Operations.StreamFriendFeed.Output
    {
        let seconds = input.query.seconds ?? 300
        guard (1...3_600).contains(seconds) else {
            throw ValidationError(field: "seconds", reason: "must be between 1 and 3600")
        }
        let caller = try RequestCaller.required()
        let body = try await self.streams.body(
            of: caller,
            accounts: self.engine.accounts,
            for: .seconds(seconds),
            first: [LiveEvents.ready]
        ) {
            try await self.engine.friends.feedUpdates(
                of: caller.userID,
                type: input.query._type.map(mapped),
                after: input.headers.lastEventID.map(ActivityEvent.ID.init),
                for: .seconds(seconds)
            )
        } encode: { entry in
            guard let item = try Components.Schemas.FriendFeedItem(entry) else { return [] }
            return [try LiveEvents.event(id: entry.activity.event.id.rawValue, event: "activity", json: item)]
        }
        return .ok(.init(body: .textEventStream(body)))
    }

    func addReaction(_ input: Operations.AddReaction.Input) async throws -> Operations.AddReaction.Output {
        guard case .json(let body) = input.body else { throw ValidationError(field: "reaction", reason: "is required") }
        let reactions = try await self.engine.friends.react(
            body.reaction,
            to: ActivityEvent.ID(input.path.id),
            by: try RequestCaller.required().userID
        )
        return .ok(.init(body: .json(.init(reactions))))
    }

    func removeReaction(_ input: Operations.RemoveReaction.Input) async throws -> Operations.RemoveReaction.Output {
        try await self.engine.friends.unreact(
            input.path.reaction,
            from: ActivityEvent.ID(input.path.id),
            by: try RequestCaller.required().userID
        )
        return .noContent(.init())
    }
}

extension API {
    func listUsers(_ input: Operations.ListUsers.Input) async throws -> Operations.ListUsers.Output {
        let people = try await self.engine.profiles.people(
            input.query.ids.map(User.ID.init),
            seenBy: try RequestCaller.required().userID
        )
        return .ok(.init(body: .json(.init(items: try people.map(Components.Schemas.PersonProfile.init)))))
    }

    func getUserProfile(_ input: Operations.GetUserProfile.Input) async throws -> Operations.GetUserProfile.Output {
        let person = try await self.engine.profiles.person(
            User.ID(input.path.id),
            seenBy: try RequestCaller.required().userID
        )
        return .ok(.init(body: .json(try .init(person))))
    }
}
