import FitCircleTesting
import Foundation
import Synchronization
import Testing

/// A PostgreSQL outage does not wedge a node: the real `fitcircle` binary is written to by four clients while
/// its own PostgreSQL is stopped and started again, three times. Before the fix, statements in flight at the
/// stop were never answered and, holding the activity writer's group-commit places, hung every later write.
@Suite(.serialized)
struct PostgresOutageTests {
    /// What the writers saw: statuses by count, acknowledged event ids per token, requests that never answered.
    final class Tally: Sendable {
        struct State {
            var statuses: [Int: Int] = [:]
            var acknowledged: [String: Set<String>] = [:]
            var unanswered = 0
        }
        let state = Mutex(State())
        let writing = Atomic(true)
    }

    @Test(.enabled(if: PrivatePostgres.isAvailable))
    func writesFailFastDuringAnOutageAndResumeWithinFiveSecondsOfEachRestart() async throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: ServerProcess.binary.path),
            "build the fitcircle product first"
        )
        let postgres = try await PrivatePostgres.create()
        defer { Task { await postgres.remove() } }
        // Four clients on one address write far faster than a person: the limits are not what is tested.
        let server = try await ServerProcess.start(
            database: postgres.url,
            environment: [
                "FITCIRCLE_LIMITS_PER_ADDRESS": "1000000", "FITCIRCLE_LIMITS_PER_USER": "1000000",
                "FITCIRCLE_DATABASE_CONNECTION_WAIT_SECONDS": "5",
            ]
        )
        defer { server.kill() }

        var tokens: [String] = []
        for index in 0..<4 {
            let (_, signIn) = try await server.post("/api/auth/dev", json: ["email": "writer\(index)@example.com"])
            let token = try #require(
                (try JSONSerialization.jsonObject(with: signIn) as? [String: Any])?["accessToken"] as? String
            )
            #expect(
                try await server.post("/api/user/profile", token: token, json: TestApp.validProfile(), method: .PUT).0
                    == 200
            )
            tokens.append(token)
        }

        let tally = Tally()
        try await withThrowingTaskGroup(of: Void.self) { writers in
            for token in tokens {
                writers.addTask {
                    var sequence = 0
                    while tally.writing.load(ordering: .relaxed) {
                        sequence += 1
                        let id = "\(token.suffix(8))-\(sequence)"
                        let event: [String: Any] = [
                            "clientEventId": id, "type": "app_open",
                            "occurredAt": ISO8601DateFormatter().string(from: Date()),
                        ]
                        // `post` gives up after 10 s: a write that waits that long counts as never answered.
                        guard let (status, _) = try? await server.post("/api/activities", token: token, json: event)
                        else {
                            tally.state.withLock { $0.unanswered += 1 }
                            return
                        }
                        tally.state.withLock { state in
                            state.statuses[status, default: 0] += 1
                            if status == 201 { state.acknowledged[token, default: []].insert(id) }
                        }
                    }
                }
            }

            for _ in 0..<3 {
                try await Task.sleep(for: .seconds(1))
                try await postgres.stop()
                try await Task.sleep(for: .seconds(1))
                // While the database is down: the node lives, says it is not ready, and a write fails fast.
                #expect(try await server.get("/healthz").0 == 200)
                #expect(try await server.get("/readyz").0 == 503)
                let started = ContinuousClock.now
                let (status, _) = try await server.post(
                    "/api/activities",
                    token: tokens[0],
                    json: [
                        "clientEventId": UUID().uuidString, "type": "app_open",
                        "occurredAt": ISO8601DateFormatter().string(from: Date()),
                    ]
                )
                #expect(status == 503)
                // PostgreSQL stays down until this write has answered, so before the fix it never did. Alone it
                // answers within a second or two; the bound leaves room for a machine running the whole suite.
                let elapsed = ContinuousClock.now - started
                print("outage write answered \(status) after \(elapsed)")
                #expect(elapsed < .seconds(20), "a write fails fast during an outage")

                try await postgres.start()
                let restarted = ContinuousClock.now
                var resumed = false
                while !resumed && ContinuousClock.now - restarted < .seconds(5) {
                    let event: [String: Any] = [
                        "clientEventId": UUID().uuidString, "type": "app_open",
                        "occurredAt": ISO8601DateFormatter().string(from: Date()),
                    ]
                    resumed = (try? await server.post("/api/activities", token: tokens[1], json: event).0) == 201
                    if !resumed { try await Task.sleep(for: .milliseconds(100)) }
                }
                #expect(resumed, "a write succeeds within 5 s of PostgreSQL's restart")
            }
            tally.writing.store(false, ordering: .relaxed)
            try await writers.waitForAll()
        }

        let seen = tally.state.withLock { $0 }
        #expect(seen.unanswered == 0)
        #expect(Set(seen.statuses.keys).subtracting([201, 503]).isEmpty, "only 201 or 503: \(seen.statuses)")
        #expect(seen.statuses[201, default: 0] > 0)
        // Nothing acknowledged is lost.
        for token in tokens {
            var (stored, cursor) = (Set<String>(), "")
            repeat {
                let (status, body) = try await server.get("/api/activities?limit=200\(cursor)", token: token)
                try #require(status == 200)
                let page = try JSONSerialization.jsonObject(with: body) as? [String: Any]
                let items = page?["items"] as? [[String: Any]] ?? []
                stored.formUnion(items.compactMap { $0["clientEventId"] as? String })
                cursor = (page?["nextCursor"] as? String).map { "&cursor=\($0)" } ?? ""
            } while !cursor.isEmpty
            let acknowledged = seen.acknowledged[token, default: []]
            #expect(
                acknowledged.isSubset(of: stored),
                "\(acknowledged.subtracting(stored).count) acknowledged events missing"
            )
        }
    }
}
