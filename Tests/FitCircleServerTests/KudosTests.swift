import FitCircleClient
import FitCircleTesting
import Testing

/// Kudos between friends, through the API as an app calls it (the generated client, in process): given once
/// per friend, taken back, counted on the person's page; refused to oneself and to a stranger; not there
/// for someone the person blocked; gone with a deleted account.
struct KudosTests {
    @Test(arguments: Backend.available)
    func aFriendGivesKudosOnceTakesItBackAndEveryoneSeesTheCount(_ backend: Backend) async throws {
        try await withTestApp(backend) { app in
            let ana = try await app.person("ana@example.com")
            let bo = try await app.person("bo@example.com")
            let cy = try await app.person("cy@example.com")
            try await app.befriend(ana, bo)
            try await app.befriend(ana, cy)

            let given = try await app.api(bo.token).giveKudos(path: .init(id: ana.id)).ok.body.json
            #expect(given.userId == ana.id && given.count == 1 && given.givenByMe)
            // Giving again changes nothing: one kudos per friend.
            let again = try await app.api(bo.token).giveKudos(path: .init(id: ana.id)).ok.body.json
            #expect(again.count == 1 && again.givenByMe)
            _ = try await app.api(cy.token).giveKudos(path: .init(id: ana.id)).ok

            let seenByAna = try await app.api(ana.token).getUserKudos(path: .init(id: ana.id)).ok.body.json
            #expect(seenByAna.count == 2 && !seenByAna.givenByMe)
            let stranger = try await app.person("dee@example.com")
            let seenByStranger = try await app.api(stranger.token).getUserKudos(path: .init(id: ana.id)).ok.body.json
            #expect(seenByStranger.count == 2 && !seenByStranger.givenByMe)

            let takenBack = try await app.api(bo.token).takeBackKudos(path: .init(id: ana.id)).ok.body.json
            #expect(takenBack.count == 1 && !takenBack.givenByMe)
            let takenTwice = try await app.api(bo.token).takeBackKudos(path: .init(id: ana.id)).ok.body.json
            #expect(takenTwice.count == 1)
        }
    }

    @Test(arguments: Backend.available)
    func kudosAreRefusedToOneselfAndStrangersAndHiddenFromTheBlocked(_ backend: Backend) async throws {
        try await withTestApp(backend) { app in
            let ana = try await app.person("ana@example.com")
            let bo = try await app.person("bo@example.com")
            let stranger = try await app.person("dee@example.com")
            try await app.befriend(ana, bo)

            _ = try await app.api(ana.token).giveKudos(path: .init(id: ana.id)).forbidden
            _ = try await app.api(stranger.token).giveKudos(path: .init(id: ana.id)).forbidden
            _ = try await app.api(bo.token).giveKudos(path: .init(id: "no-such-user")).notFound
            #expect(try await app.api(ana.token).getUserKudos(path: .init(id: ana.id)).ok.body.json.count == 0)

            // Ana blocks Bo: the friendship ends, and for Bo she is not there.
            _ = try await app.api(ana.token).blockUser(body: .json(.init(userId: bo.id))).noContent
            _ = try await app.api(bo.token).getUserKudos(path: .init(id: ana.id)).notFound
            _ = try await app.api(bo.token).giveKudos(path: .init(id: ana.id)).notFound
        }
    }

    @Test(arguments: Backend.available)
    func aDeletedAccountsKudosAreGoneFromThePageItGaveThemTo(_ backend: Backend) async throws {
        try await withTestApp(backend) { app in
            let ana = try await app.person("ana@example.com")
            let bo = try await app.person("bo@example.com")
            try await app.befriend(ana, bo)
            _ = try await app.api(bo.token).giveKudos(path: .init(id: ana.id)).ok
            #expect(try await app.api(ana.token).getUserKudos(path: .init(id: ana.id)).ok.body.json.count == 1)

            _ = try await app.api(bo.token).deleteAccount().noContent
            #expect(try await app.api(ana.token).getUserKudos(path: .init(id: ana.id)).ok.body.json.count == 0)
        }
    }
}
