import FitCircleTesting
import Foundation
import Testing

@testable import FitCircleClient

/// Issue 42: the SDK asks for a board again with the tag of the answer it holds, and an unchanged board
/// comes back as a bodiless 304 that the SDK hands on as the board it had; a changed one is read in full.
struct ConditionalReadTests {
    @Test(arguments: Backend.available)
    func anUnchangedBoardIsA304HandedOnAsTheBoardHeld(_ backend: Backend) async throws {
        try await withTestApp(backend) { app in
            let transport = RecordingTransport(app: app)
            try await FitCircle.withInProcessDevice(app, transport: transport) { device in
                let token = try await app.onboardedUser("ana@example.com")
                try await device.signInForDevelopment(email: "ana@example.com")
                let created = try await app.request(
                    .post,
                    "/api/fitcircles",
                    token: token,
                    json: ["name": "Walkers", "metric": "steps"]
                ).jsonObject()
                let circle = try #require(created["id"] as? String)

                let first = try await device.leaderboard(circle: circle, period: .daily)
                let second = try await device.leaderboard(circle: circle, period: .daily)
                #expect(second == first)
                #expect(transport.statuses(of: "getFitCircleLeaderboard") == [200, 304])

                try await device.record(.steps(6_000, at: app.clock.now, id: "steps-today"))
                try await device.sync()
                #expect(
                    try await app.request(.post, "/api/fitcircles/\(circle)/submit", token: token).status.code < 300
                )
                let moved = try await device.leaderboard(circle: circle, period: .daily)
                #expect(moved != first && transport.statuses(of: "getFitCircleLeaderboard") == [200, 304, 200])
            }
        }
    }

    @Test func theAnswersHeldAreBoundedAndTheLeastRecentlyUsedLeaveFirst() async {
        let answers = ConditionalReadMiddleware.Answers()
        func key(_ index: Int) -> ConditionalReadMiddleware.Answers.Key {
            .init(path: "/api/x/\(index)", credentials: "Bearer a")
        }
        for index in 0...ConditionalReadMiddleware.capacity {
            if index == ConditionalReadMiddleware.capacity { _ = await answers.answer(for: key(0)) }  // 0 used again
            await answers.keep(.init(tag: "\"\(index)\"", headers: [:], body: Data()), for: key(index))
        }
        #expect(await answers.count == ConditionalReadMiddleware.capacity)
        #expect(await answers.answer(for: key(0)) != nil)
        #expect(await answers.answer(for: key(1)) == nil)
        // Another person's credentials share nothing.
        #expect(await answers.answer(for: .init(path: "/api/x/2", credentials: "Bearer b")) == nil)
    }
}
