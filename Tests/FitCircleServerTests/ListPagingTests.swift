import FitCircleClient
import FitCircleCore
import FitCircleTesting
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

/// The lists that can grow are read a page at a time, all the same way (issue 46): `limit` within the bounds
/// the document declares, `cursor` = the page's `nextCursor`, absent on the last; every item once, in order.
struct ListPagingTests {
    @Test(arguments: Backend.available)
    func theInboxAndTheHistoryAreReadAPageAtATimeEachItemOnce(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let ana = try await app.person("ana@example.com")
            var sent: [String] = []  // "instant id"
            for n in 0..<7 {
                let invitation = try await app.sendNotification(
                    "challenge_invitation",
                    key: "i\(n)",
                    to: ana.id,
                    data: ["name": "Bo", "challenge": "Walk \(n)", "challengeId": "c\(n)"]
                )
                #expect(invitation.status == .sent)
                sent.append("\(n / 2) \(invitation.id)")
                // Two by two at the same instant: the order then goes by id.
                if n % 2 == 1 { app.clock.advance(by: 60) }
            }
            // Newest first, and among those of one instant the greater id first.
            let newestFirst = sent.sorted(by: >).map { String($0.split(separator: " ")[1]) }
            let api = try await app.api(as: ana)

            var (read, pages, cursor): ([String], Int, String?) = ([], 0, nil)
            repeat {
                let page = try await api.getNotificationInbox(query: .init(cursor: cursor, limit: 3)).ok.body.json
                #expect(page.unread == 7, "every unread one is counted, not only the page's")
                read += page.items.map(\.id)
                (pages, cursor) = (pages + 1, page.nextCursor)
            } while cursor != nil && pages < 10
            #expect(read == newestFirst, "newest first, each once")
            #expect(pages == 3)

            var history: [String] = []
            cursor = nil
            repeat {
                let page = try await api.getNotificationHistory(query: .init(cursor: cursor, limit: 2, channel: .inApp))
                    .ok.body.json
                history += page.items.map(\.id)
                cursor = page.nextCursor
            } while cursor != nil && history.count < 20
            #expect(history == newestFirst)
            let email = try await api.getNotificationHistory(query: .init(channel: .email)).ok.body.json
            #expect(email.items.isEmpty && email.nextCursor == nil)

            let token = try await ana.token(app)
            for (query, field) in [
                ("cursor=bm9wZQ&limit=3", "cursor"), ("limit=101", "limit"), ("limit=0", "limit"),
                ("cursor=\(String(repeating: "A", count: 600))", "cursor"),
            ] {
                for path in ["/api/notifications/inbox", "/api/notifications/history"] {
                    let refused = try await app.request(.get, "\(path)?\(query)", token: token)
                    #expect(refused.status == .unprocessableContent, "\(path)?\(query): \(refused.text)")
                    #expect(try refused.problem().fields == [field], "\(path)?\(query)")
                }
            }
        }
    }

    @Test(arguments: Backend.available)
    func aCirclesMembersAndOnesFriendsAreReadAPageAtATime(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let owner = try await app.person(named: "Ana")
            let circle = try await app.createCircle(
                by: owner,
                ["name": "Walkers", "metric": "steps", "privacy": "private", "memberLimit": 20]
            )
            var joined = [owner.id]
            var friends: [TestPerson] = []
            for name in ["Eve", "Bo", "Cy", "Dee", "Fay"] {
                app.clock.advance(by: 60)
                let person = try await app.person(named: name)
                let answer = try await app.request(
                    .post,
                    "/api/fitcircles/join",
                    token: try await person.token(app),
                    json: ["code": circle.joinCode ?? ""]
                )
                #expect(answer.status == .ok, "\(answer.text)")
                joined.append(person.id)
                try await app.befriend(owner, person)
                friends.append(person)
            }
            // Eve leaves and joins again: her place is her latest joining (her rows of both mark it), at the end.
            let eve = friends[0]
            #expect(
                try await app.request(.post, "/api/fitcircles/\(circle.id)/leave", token: try await eve.token(app))
                    .status
                    .code < 300
            )
            app.clock.advance(by: 60)
            let back = try await app.request(
                .post,
                "/api/fitcircles/join",
                token: try await eve.token(app),
                json: ["code": circle.joinCode ?? ""]
            )
            #expect(back.status == .ok, "\(back.text)")
            joined.removeAll { $0 == eve.id }
            joined.append(eve.id)
            // Cy blocks Ana: Cy is left out of Ana's pages, and the pages still go on past Cy's place.
            let cy = friends[2]
            _ = try await app.api(as: cy).blockUser(body: .json(.init(userId: owner.id))).noContent
            let api = try await app.api(as: owner)

            var (members, cursor): ([String], String?) = ([], nil)
            repeat {
                let page = try await api.listFitCircleMembers(
                    path: .init(id: circle.id),
                    query: .init(cursor: cursor, limit: 2)
                )
                .ok.body.json
                #expect(page.items.count <= 2)
                members += page.items.map(\.userId)
                cursor = page.nextCursor
            } while cursor != nil && members.count < 20
            #expect(members == joined.filter { $0 != cy.id }, "in the order they joined, each once")

            // A block ends a friendship: Ana's friends are the other four, by name.
            var names: [String] = []
            cursor = nil
            repeat {
                let page = try await api.listFriends(query: .init(cursor: cursor, limit: 3)).ok.body.json
                names += page.items.map(\.displayName)
                cursor = page.nextCursor
            } while cursor != nil && names.count < 20
            #expect(names == ["Bo", "Dee", "Eve", "Fay"])

            // A board's first page honours `limit` too (review, I26): the leader alone, and where the rest starts.
            try await app.claim(5_000, in: circle.id, as: owner)
            try await app.claim(7_000, in: circle.id, as: friends[0])
            let leader = try await app.board(circle.id, as: owner, query: "&limit=1")
            #expect(leader.layout == .page && leader.rows.map(\.userId) == [friends[0].id], "\(leader.rows)")
            let after = try #require(leader.nextCursor)
            let rest = try await app.board(circle.id, as: owner, query: "&limit=1&cursor=\(after)")
            #expect(rest.rows.map(\.userId) == [owner.id] && rest.nextCursor == nil)
            #expect(try await app.board(circle.id, as: owner).layout == .full)

            let token = try await owner.token(app)
            try await Self.expectRefused(
                app,
                token: token,
                [
                    ("/api/fitcircles/\(circle.id)/members?limit=501", "limit"),
                    ("/api/fitcircles/\(circle.id)/members?cursor=!!!", "cursor"),
                    ("/api/friends?limit=1001", "limit"), ("/api/friends?cursor=bm9wZQ", "cursor"),
                ]
            )
        }
    }

    /// Every item of a list, read with `page` (the cursor to its ids and next cursor): the ids in order and how
    /// many pages it took (at most 20: a list that never ends stops there).
    static func readAll(_ page: (String?) async throws -> (ids: [String], next: String?)) async throws -> (
        ids: [String], pages: Int
    ) {
        var (ids, pages, cursor): ([String], Int, String?) = ([], 0, nil)
        repeat {
            let read = try await page(cursor)
            (ids, pages, cursor) = (ids + read.ids, pages + 1, read.next)
        } while cursor != nil && pages < 20
        return (ids, pages)
    }

    /// Each of `reads` (a path and the one field its query gets wrong) is a 422 naming that field.
    static func expectRefused(_ app: TestApp, token: String, _ reads: [(path: String, field: String)]) async throws {
        for (path, field) in reads {
            let refused = try await app.request(.get, path, token: token)
            #expect(refused.status == .unprocessableContent, "\(path): \(refused.text)")
            #expect(try refused.problem().fields == [field], "\(path)")
        }
    }

    @Test(arguments: Backend.available)
    func requestsEitherWayAndBlocksAreReadAPageAtATimeTheLatestFirst(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let ana = try await app.person(named: "Ana")
            var (askers, asked, blocked): ([TestPerson], [TestPerson], [TestPerson]) = ([], [], [])
            for n in 0..<5 {
                app.clock.advance(by: 60)
                let asker = try await app.person(named: "Asker \(n)", email: "asker\(n)@example.com")
                #expect(try await app.friendAction("/api/friends/request", by: asker, to: ana).status == .ok)
                askers.append(asker)
                let other = try await app.person(named: "Asked \(n)", email: "asked\(n)@example.com")
                #expect(try await app.friendAction("/api/friends/request", by: ana, to: other).status == .ok)
                asked.append(other)
                let pest = try await app.person(named: "Pest \(n)", email: "pest\(n)@example.com")
                #expect(try await app.friendAction("/api/friends/blocks", by: ana, to: pest).status == .noContent)
                blocked.append(pest)
            }
            let api = try await app.api(as: ana)
            for (direction, people) in [
                (Operations.ListFriendRequests.Input.Query.DirectionPayload.incoming, askers), (.outgoing, asked),
            ] {
                let read = try await Self.readAll { cursor in
                    let page = try await api.listFriendRequests(
                        query: .init(direction: direction, cursor: cursor, limit: 2)
                    ).ok.body.json
                    return (page.items.map(\.userId), page.nextCursor)
                }
                #expect(read.ids == people.reversed().map(\.id), "\(direction): newest first, each once")
                #expect(read.pages == 3)
            }
            // Someone unblocked between two pages: the next page goes on from where the last one ended.
            let first = try await api.listBlockedUsers(query: .init(limit: 2)).ok.body.json
            #expect(first.items.map(\.userId) == [blocked[4].id, blocked[3].id])
            #expect(
                try await app.request(.delete, "/api/friends/blocks/\(blocked[3].id)", token: try await ana.token(app))
                    .status == .noContent
            )
            let rest = try await Self.readAll { cursor in
                let page = try await api.listBlockedUsers(query: .init(cursor: cursor ?? first.nextCursor, limit: 2))
                    .ok.body.json
                return (page.items.map(\.userId), page.nextCursor)
            }
            #expect(rest.ids == [blocked[2].id, blocked[1].id, blocked[0].id])

            let token = try await ana.token(app)
            let incomingCursor = try #require(
                try await api.listFriendRequests(query: .init(limit: 1)).ok.body.json.nextCursor
            )
            try await Self.expectRefused(
                app,
                token: token,
                [
                    ("/api/friends/requests?direction=outgoing&cursor=\(incomingCursor)", "cursor"),
                    ("/api/friends/blocks?cursor=\(incomingCursor)", "cursor"),
                    ("/api/friends/requests?limit=201", "limit"), ("/api/friends/blocks?limit=0", "limit"),
                    ("/api/friends/requests?direction=sideways", "direction"),
                ]
            )
        }
    }

    @Test(arguments: Backend.available)
    func aCirclesBansInvitationsAndClaimsOfTheDayAreReadAPageAtATime(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let owner = try await app.person(named: "Ana")
            let circle = try await app.createCircle(
                by: owner,
                ["name": "Walkers", "metric": "steps", "privacy": "private", "memberLimit": 20]
            )
            let ownerAPI = try await app.api(as: owner)
            var (members, banned, invited): ([TestPerson], [TestPerson], [String]) = ([], [], [])
            for n in 0..<4 {
                app.clock.advance(by: 60)
                // A removal changes the code.
                let code = try await ownerAPI.getFitCircle(path: .init(id: circle.id)).ok.body.json.joinCode
                let member = try await app.person(named: "Member \(n)", email: "member\(n)@example.com")
                _ = try await app.api(as: member).joinFitCircle(body: .json(.init(code: code))).ok
                members.append(member)
                let ousted = try await app.person(named: "Ousted \(n)", email: "ousted\(n)@example.com")
                _ = try await app.api(as: ousted).joinFitCircle(body: .json(.init(code: code))).ok
                _ = try await ownerAPI.removeFitCircleMember(path: .init(id: circle.id, userId: ousted.id)).noContent
                banned.append(ousted)
                let invitation = try await ownerAPI.inviteToFitCircle(
                    path: .init(id: circle.id),
                    body: .json(.init(email: "guest\(n)@example.com"))
                ).created.body.json
                invited.append(invitation.id)
            }
            let bans = try await Self.readAll { cursor in
                let page = try await ownerAPI.listFitCircleBans(
                    path: .init(id: circle.id),
                    query: .init(cursor: cursor, limit: 3)
                ).ok.body.json
                return (page.items.map(\.userId), page.nextCursor)
            }
            #expect(bans.ids == banned.reversed().map(\.id) && bans.pages == 2, "the latest first, each once")
            // An invitation revoked between two pages: the next page goes on from where the last one ended.
            let first = try await ownerAPI.listFitCircleInvitations(path: .init(id: circle.id), query: .init(limit: 2))
                .ok.body.json
            #expect(first.items.map(\.id) == [invited[3], invited[2]])
            _ = try await ownerAPI.revokeFitCircleInvitation(path: .init(id: circle.id, invitationId: invited[2]))
                .noContent
            let rest = try await ownerAPI.listFitCircleInvitations(
                path: .init(id: circle.id),
                query: .init(cursor: first.nextCursor, limit: 2)
            ).ok.body.json
            #expect(rest.items.map(\.id) == [invited[1], invited[0]] && rest.nextCursor == nil)

            // The day's claims: member 1 blocked Ana and is left out of her pages; member 2 shows their name
            // on boards to friends only, so Ana sees that they claimed but not their steps.
            for member in members { try await app.claim(4_000, in: circle.id, as: member) }
            _ = try await app.api(as: members[1]).blockUser(body: .json(.init(userId: owner.id))).noContent
            try await app.setVisibility(of: members[2], name: "Member 2", ["boardName": "friends"])
            var claims: [Components.Schemas.SubmissionsToday.ItemsPayloadPayload] = []
            let read = try await Self.readAll { cursor in
                let page = try await ownerAPI.getFitCircleSubmissionsToday(
                    path: .init(id: circle.id),
                    query: .init(cursor: cursor, limit: 2)
                ).ok.body.json
                claims += page.items
                return (page.items.map(\.userId), page.nextCursor)
            }
            #expect(read.ids == [owner.id, members[0].id, members[2].id, members[3].id], "in the order they joined")
            #expect(read.pages == 3)
            #expect(claims.map(\.submitted) == [false, true, true, true])
            #expect(claims.map(\.steps) == [nil, 4_000, nil, 4_000])

            let token = try await owner.token(app)
            let banCursor = try #require(
                try await ownerAPI.listFitCircleBans(path: .init(id: circle.id), query: .init(limit: 1)).ok.body.json
                    .nextCursor
            )
            try await Self.expectRefused(
                app,
                token: token,
                [
                    ("/api/fitcircles/\(circle.id)/invitations?cursor=\(banCursor)", "cursor"),
                    ("/api/fitcircles/\(circle.id)/submissions/today?cursor=\(banCursor)", "cursor"),
                    ("/api/fitcircles/\(circle.id)/bans?limit=201", "limit"),
                    ("/api/fitcircles/\(circle.id)/submissions/today?limit=501", "limit"),
                ]
            )
        }
    }

    @Test(arguments: Backend.available)
    func onesCirclesAndChallengesEitherScopeAreReadAPageAtATime(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let ana = try await app.person(named: "Ana")
            let bo = try await app.person(named: "Bo")
            let token = try await ana.token(app)
            var (circles, challenges): ([String], [String]) = ([], [])
            for n in 0..<3 {
                app.clock.advance(by: 60)
                circles.append(try await app.createCircle(by: ana, ["name": "Circle \(n)", "metric": "steps"]).id)
                // The later made starts later and ends sooner.
                let made = try await app.request(
                    .post,
                    "/api/competitions",
                    token: token,
                    json: [
                        "name": "Race \(n)", "type": "distance", "durationDays": 7 - n, "visibility": "public",
                        "startsAt": ISO8601DateFormatter().string(from: app.clock.now.addingTimeInterval(86_400)),
                    ]
                )
                #expect(made.status == .created, "\(made.text)")
                challenges.append(try made.decoded(as: Components.Schemas.Competition.self).id)
            }
            let api = try await app.api(as: ana)
            let mineCircles = try await Self.readAll { cursor in
                let page = try await api.listFitCircles(query: .init(cursor: cursor, limit: 2)).ok.body.json
                return (page.items.map(\.id), page.nextCursor)
            }
            #expect(mineCircles.ids == circles.reversed() && mineCircles.pages == 2, "newest first, each once")
            let mine = try await Self.readAll { cursor in
                let page = try await api.listCompetitions(query: .init(scope: .mine, cursor: cursor, limit: 2)).ok.body
                    .json
                return (page.items.map(\.id), page.nextCursor)
            }
            #expect(mine.ids == challenges.reversed() && mine.pages == 2, "the latest start first")
            let boAPI = try await app.api(as: bo)
            let open = try await Self.readAll { cursor in
                let page = try await boAPI.listCompetitions(query: .init(scope: .open, cursor: cursor, limit: 2)).ok
                    .body.json
                return (page.items.map(\.id), page.nextCursor)
            }
            #expect(open.ids == challenges.reversed() && open.pages == 2, "the soonest end first")

            let mineCursor = try #require(
                try await api.listCompetitions(query: .init(limit: 1)).ok.body.json.nextCursor
            )
            try await Self.expectRefused(
                app,
                token: token,
                [
                    ("/api/competitions?scope=open&cursor=\(mineCursor)", "cursor"),
                    ("/api/fitcircles?cursor=\(mineCursor)", "cursor"),
                    ("/api/competitions?limit=101", "limit"), ("/api/fitcircles?limit=0", "limit"),
                ]
            )
        }
    }
}
