import FitCircleAPI
import FitCircleTesting
import Foundation
import Hummingbird
import HummingbirdTesting
import OpenAPIRuntime
import Synchronization
import Testing

@testable import FitCircleServer

/// Event streams hold a connection for up to an hour: they are capped per user and per node, and end with
/// their session.
struct StreamLimitTests {
    @Test(arguments: Backend.available)
    func signingOutEndsTheSessionsOpenStreams(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.onboardedUser()
            let circle = try await app.request(
                .post,
                "/api/fitcircles",
                token: token,
                json: ["name": "Morning crew", "metric": "steps", "privacy": "private"]
            ).jsonObject()
            let circleID = try #require(circle["id"] as? String)
            let started = ContinuousClock.now
            try await withThrowingTaskGroup(of: (String, Int).self) { group in
                for path in ["/api/notifications/stream?seconds=30", "/api/fitcircles/\(circleID)/stream?seconds=30"] {
                    group.addTask { (path, Int(try await app.request(.get, path, token: token).status.code)) }
                }
                try await Task.sleep(for: .milliseconds(300))
                #expect(try await app.request(.post, "/api/auth/signout", token: token).status == .noContent)
                for try await (path, status) in group {
                    #expect(status == 200, "\(path)")
                }
            }
            // Asked for 30 s; ended by the sign-out, which the streams check every 2 s.
            #expect(ContinuousClock.now - started < .seconds(20))
        }
    }

    @Test(arguments: Backend.available)
    func aUserMayKeepOnlySoManyStreamsOpen(_ backend: Backend) async throws {
        var limits = RequestLimits.generous
        limits.streamsPerUser = 2
        try await withTestApp(backend, limits: limits) { app async throws in
            let ana = try await app.onboardedUser()
            let ben = try await app.onboardedUser("ben@example.com")
            // Three of Ana's and one of Ben's at once, each open for 3 s: one of Ana's is refused.
            let answers = try await withThrowingTaskGroup(of: (String, Int, String?, String?).self) { group in
                for (who, token) in [("ana", ana), ("ana", ana), ("ana", ana), ("ben", ben)] {
                    group.addTask {
                        let response = try await app.request(.get, "/api/notifications/stream?seconds=3", token: token)
                        return (
                            who, Int(response.status.code), try response.problemType(), response.headers[.retryAfter]
                        )
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.filter { $0.0 == "ana" }.map(\.1).sorted() == [200, 200, 429])
            #expect(answers.filter { $0.0 == "ben" }.map(\.1) == [200], "another person's streams are not Ana's")
            let refused = try #require(answers.first { $0.1 == 429 })
            #expect(refused.2 == "/problems/rate-limited")
            #expect(refused.3 != nil, "Retry-After")
            // The two ended: their places are free again.
            #expect(try await app.request(.get, "/api/notifications/stream?seconds=1", token: ana).status == .ok)
        }
    }
}

/// Issue 41: a stream whose client went kept its place until its time ran out (five minutes by default), so
/// an app that reconnected a few times locked itself out. A quiet stream now writes a heartbeat, and the write
/// that fails on a closed connection ends the body's reading, which gives the place back.
struct ClosedStreamTests {
    /// The mechanism, in process: the body beats while its stream is quiet, and when its reader goes away
    /// (what a failed write does to the server's reading of the body) the stream's place is free at once.
    @Test func aBodyWhoseReaderGoesAwayGivesTheStreamsPlaceBack() async throws {
        try await withTestApp(.sqlite) { app async throws in
            let caller = try await app.engine.accounts.authenticate(accessToken: try await app.onboardedUser())
            let streams = OpenStreams(perUser: 1, perNode: 10, heartbeat: .milliseconds(50))
            func open() async throws -> HTTPBody {
                try await streams.body(of: caller, accounts: app.engine.accounts, for: .seconds(60)) {
                    AsyncStream<ServerSentEvent> { _ in }
                } encode: {
                    [$0]
                }
            }
            var reader: HTTPBody.Iterator? = try await open().makeAsyncIterator()
            #expect(try await reader?.next() == LiveEvents.heartbeat, "a quiet stream beats")
            await #expect(throws: ProblemDocument.self, "one stream is all she may have") { _ = try await open() }
            reader = nil  // the write failed: the server stops reading the body
            var reopened: HTTPBody?
            for _ in 0..<100 where reopened == nil {
                reopened = try? await open()
                if reopened == nil { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(reopened != nil, "the place came back")
        }
    }

    /// A stream whose events end at once (its time up, say) ends its body and gives its place back: the
    /// place is taken before the stream's task starts, and given back however soon it ends.
    @Test func aStreamWhoseEventsEndAtOnceGivesItsPlaceBack() async throws {
        try await withTestApp(.sqlite) { app async throws in
            let caller = try await app.engine.accounts.authenticate(accessToken: try await app.onboardedUser())
            let streams = OpenStreams(perUser: 1, perNode: 10)
            for round in 0..<3 {
                let body = try await streams.body(
                    of: caller,
                    accounts: app.engine.accounts,
                    for: .seconds(60),
                    first: [LiveEvents.ready]
                ) {
                    AsyncStream<ServerSentEvent> { $0.finish() }
                } encode: {
                    [$0]
                }
                var chunks = 0
                for try await _ in body { chunks += 1 }
                #expect(chunks == 1, "round \(round): the ready event, then the end")
            }
        }
    }

    /// The four streams of the document are answered in a child task (`StreamTaskMiddleware`: what their
    /// request needed is given back when the answer's head is made), every other route in the connection's.
    @Test func streamsAreAnsweredInATaskOfTheirOwn() async throws {
        let routes = try RouteTable(openAPIDocument: OpenAPIDocument.yaml())
        #expect(
            routes.streamPaths == [
                "/api/feed/stream", "/api/notifications/stream", "/api/competitions/{id}/stream",
                "/api/fitcircles/{id}/stream",
            ]
        )
        let outer = TaskMarker()
        let router = Router()
        router.add(middleware: TaskMarker.Recording(marker: outer))
        router.add(middleware: StreamTaskMiddleware(streamPaths: ["/things/{id}/stream"]))
        for path in ["/things/{id}/stream", "/things/{id}"] {
            router.get(RouterPath(path)) { _, _ in TaskMarker.current }
        }
        let app = Application(router: router)
        try await app.test(.router) { client in
            for (path, own) in [("/things/1/stream", true), ("/things/1", false)] {
                let answer = try await client.execute(uri: path, method: .get)
                #expect((String(buffer: answer.body) != outer.seen.withLock { $0 }) == own, "\(path)")
            }
        }
    }

    /// End to end with the real binary: a client that resets its connection gets its place back within a few
    /// 5 s beats (6–13 s here). Its socket is close-on-exec: when a server another test spawned inherited it,
    /// closing it here closed nothing, and the place stayed taken — a harness fault, not the server's.
    @Test
    func aStreamWhoseClientWentGivesItsPlaceBackWithinSeconds() async throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: ServerProcess.binary.path),
            "build the fitcircle product first"
        )
        let location = try await Backend.sqlite.makeLocation()
        defer { Task { await Backend.drop(location) } }
        let server = try await ServerProcess.start(
            database: location.serveURL,
            environment: ["FITCIRCLE_LIMITS_STREAMS_PER_USER": "1"]
        )
        defer { server.kill() }
        let signIn =
            try JSONSerialization.jsonObject(
                with: try await server.post("/api/auth/dev", json: ["email": "ana@example.com"]).1
            ) as? [String: Any]
        let token = try #require(signIn?["accessToken"] as? String)
        #expect(
            try await server.post("/api/user/profile", token: token, json: TestApp.validProfile(), method: .PUT).0
                == 200
        )

        var stream: RawConnection? = try RawConnection(port: server.port)
        #expect(
            stream?.send(
                "GET /api/notifications/stream?seconds=300 HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(token)\r\n\r\n"
            ) == true
        )
        #expect(try await stream?.status(within: .seconds(5)) == 200)
        #expect(
            try await server.get("/api/notifications/stream?seconds=1", token: token).0 == 429,
            "one stream is all she may have"
        )
        stream?.resetOnClose()
        stream = nil  // the app goes away without a word

        let gone = ContinuousClock.now
        var status = 429
        while status == 429, ContinuousClock.now - gone < .seconds(90) {
            try await Task.sleep(for: .milliseconds(500))
            status = try await server.get("/api/notifications/stream?seconds=1", token: token).0
        }
        #expect(status == 200)
        #expect(ContinuousClock.now - gone < .seconds(45), "a few heartbeats, not the stream's five minutes")
    }
}

/// The task a middleware ran in, for `streamsAreAnsweredInATaskOfTheirOwn`.
private final class TaskMarker: Sendable {
    let seen = Mutex("")

    static var current: String {
        withUnsafeCurrentTask { task in task.map { "\($0.hashValue)" } ?? "" }
    }

    /// Records the task that calls the next middleware (`StreamTaskMiddleware`).
    struct Recording<Context: RequestContext>: RouterMiddleware {
        let marker: TaskMarker
        func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
            async throws -> Response
        {
            self.marker.seen.withLock { $0 = TaskMarker.current }
            return try await next(request, context)
        }
    }
}
