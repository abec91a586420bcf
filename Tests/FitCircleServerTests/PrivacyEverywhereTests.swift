import FitCircleClient
import FitCircleCore
import FitCircleTesting
import Foundation
import HTTPTypes
import Testing

/// A person's privacy settings wherever they appear (spec 004, R5.7 and R11): the photo's audience in
/// search, friend lists, circle members and boards; the board-name opt-out on boards, the circle feed, its
/// stream and the notifications boards raise; names that read as they are now, not as they were.
struct PrivacyEverywhereTests {
    typealias Person = TestPerson

    @Test(arguments: Backend.available)
    func r5_7_aPhotoIsShownToItsAudienceInEveryList(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let (ana, bo, cy, dee) = (
                try await app.person(named: "Ana"), try await app.person(named: "Bo"),
                try await app.person(named: "Cy"), try await app.person(named: "Dee")
            )
            try await app.uploadPhoto(of: ana)
            try await app.befriend(ana, bo)
            let circle = try await app.createCircle(by: ana, ["name": "Photos", "metric": "steps"])
            let id = circle.id
            for person in [bo, cy] {
                #expect(
                    try await app.request(
                        .post,
                        "/api/fitcircles/join",
                        token: try await person.token(app),
                        json: ["code": (circle.joinCode ?? "")]
                    ).status == .ok
                )
            }
            _ = try await app.claim(9_000, in: id, as: ana)

            func seen(by viewer: Person) async throws -> (direct: Bool, members: Bool, board: Bool, search: Bool) {
                let token = try await viewer.token(app)
                let direct = try await app.request(.get, "/api/users/\(ana.id)/photo", token: token).status == .ok
                let members = try await app.api(token).listFitCircleMembers(path: .init(id: id)).ok.body.json.items
                let listed = members.first { $0.userId == ana.id }?.photoUrl != nil
                let board =
                    (try await app.board(id, as: viewer)).rows.first {
                        $0.userId == ana.id
                    }?.photoUrl != nil
                let found = try await app.api(token).searchUsers(query: .init(q: "ana")).ok.body.json.items
                let search = found.first { $0.userId == ana.id }?.photoUrl != nil
                return (direct, listed, board, search)
            }
            // `everyone` (the default): the circle mate and the stranger see it too.
            #expect(try await seen(by: cy) == (true, true, true, true))
            #expect(
                try await app.request(.get, "/api/users/\(ana.id)/photo", token: try await dee.token(app)).status == .ok
            )
            // `friends`: Bo (a friend, in search he is one so he is not listed) sees it; Cy, in the circle, does not.
            try await app.setVisibility(of: ana, name: "Ana", ["photo": "friends"])
            #expect(try await seen(by: cy) == (false, false, false, false))
            let bo_ = try await seen(by: bo)
            #expect(bo_.direct && bo_.members && bo_.board)
            #expect(
                try await app.request(.get, "/api/users/\(ana.id)/photo", token: try await dee.token(app)).status
                    == .notFound
            )
            // `only_me`: nobody else; she still does.
            try await app.setVisibility(of: ana, name: "Ana", ["photo": "only_me"])
            #expect(try await seen(by: bo).direct == false)
            #expect(
                try await app.request(.get, "/api/user/profile/photo", token: try await ana.token(app)).status == .ok
            )
            // An update that leaves the photo's audience out keeps it.
            try await app.setVisibility(of: ana, name: "Ana", [:])
            #expect(try await app.api(as: ana).getProfile().ok.body.json.visibility.photo == .onlyMe)
        }
    }

    /// "A member": opted out of boards by name, to whom the audience leaves out — rows, the feed, rank
    /// notifications and look-ups by id all name no one.
    @Test(arguments: Backend.available)
    func r11_aMemberWhoOptsOutOfBoardsByNameIsAMemberToOthers(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let (ana, bo, cy) = (
                try await app.person(named: "Ana"), try await app.person(named: "Bo"),
                try await app.person(named: "Cy")
            )
            try await app.uploadPhoto(of: ana)
            try await app.befriend(ana, bo)
            try await app.setVisibility(of: ana, name: "Ana", ["boardName": "friends"])
            let circle = try await app.createCircle(by: cy, ["name": "Quiet", "metric": "steps"])
            let id = circle.id
            for person in [ana, bo] {
                #expect(
                    try await app.request(
                        .post,
                        "/api/fitcircles/join",
                        token: try await person.token(app),
                        json: ["code": (circle.joinCode ?? "")]
                    ).status == .ok
                )
            }
            _ = try await app.claim(5_000, in: id, as: cy)
            _ = try await app.claim(9_000, in: id, as: ana)  // passes Cy

            // Cy, not her friend: "A member", no id, no photo; on the board, in the feed, in the notification.
            let top = try #require((try await app.board(id, as: cy)).rows.first)
            #expect(
                top.displayName == "A member" && top.userId == nil && top.photoUrl == nil
                    && top.value == 9_000
            )
            let items = try await app.api(as: cy).getFitCircleFeed(path: .init(id: id)).ok.body.json.items
            #expect(!items.contains { $0.text.contains("Ana") || $0.actorId == ana.id }, "\(items)")
            #expect(
                items.contains {
                    $0.text == "🏃 A member submitted 9,000 steps—now #1!" && $0.actorName == "A member"
                }
            )
            let passed = try await app.notifications(of: cy, type: "leaderboard_passed")
            #expect(
                passed.first?.body.hasPrefix("📉 A member just passed you") == true
                    && passed.first?.data["actorId"] == nil,
                "\(passed)"
            )
            let inbox = try await app.request(.get, "/api/notifications/inbox", token: try await cy.token(app))
                .jsonObject()
            #expect(!(inbox.description.contains("Ana")), "\(inbox)")
            // Her standing cannot be looked up by id either.
            #expect(
                try await app.request(
                    .get,
                    "/api/fitcircles/\(id)/leaderboard/user/\(ana.id)",
                    token: try await cy.token(app)
                ).status == .notFound
            )

            // Bo, her friend, and Ana herself see her name.
            for viewer in [bo, ana] {
                let row = (try await app.board(id, as: viewer)).rows.first
                #expect(row?.displayName == "Ana" && row?.userId == ana.id)
                #expect(
                    try await app.feedTexts(of: id, as: viewer).contains(
                        "🏃 Ana submitted 9,000 steps—now #1!"
                    )
                )
            }
            // Named to everyone again, and renamed: the stored feed item reads as she is called now.
            try await app.setVisibility(of: ana, name: "Ana B.", ["boardName": "everyone"])
            #expect(
                try await app.feedTexts(of: id, as: cy).contains("🏃 Ana B. submitted 9,000 steps—now #1!")
            )
            #expect(
                (try await app.board(id, as: cy)).rows.first?.displayName == "Ana B."
            )
        }
    }

    /// Names in notification copy are read when shown: a rename reaches the inbox.
    @Test(arguments: Backend.available)
    func r11_aRenameReachesTheNotificationsThatNamedThePerson(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let (ana, bo) = (try await app.person(named: "Ana"), try await app.person(named: "Bo"))
            try await app.befriend(ana, bo)
            let his = try await app.recordWorkout("his", by: bo, minutesAgo: 10)
            #expect(
                try await app.request(
                    .post,
                    "/api/activities/\(his)/reactions",
                    token: try await ana.token(app),
                    json: ["reaction": "🔥"]
                ).status.code < 300
            )
            _ = try await app.notifications(of: bo, type: "reaction_received")
            var profile = TestApp.validProfile()
            profile["displayName"] = "Ana Lima"
            #expect(
                try await app.request(.put, "/api/user/profile", token: try await ana.token(app), json: profile).status
                    == .ok
            )
            let bodies = try await app.api(as: bo).getNotificationInbox().ok.body.json.items.map(\.body)
            #expect(bodies.contains { $0.hasPrefix("Ana Lima reacted 🔥") }, "\(bodies)")
        }
    }
}
