import Foundation
import HTTPTypes
import OpenAPIRuntime
import Synchronization
import Testing

@testable import FitCircleClient

/// Retries without a server: the backoff's growth and jitter, `Retry-After` honoured, the status's failure
/// count and `needsAttention`, and `retryNow` cutting a long wait short.
struct SyncPolicyTests {
    @Test func theBackoffDoublesUpToItsCapWithJitterAndNeverUndercutsRetryAfter() {
        let policy = SyncPolicy(initialBackoff: .seconds(1), maximumBackoff: .seconds(60))
        for failures in 1...12 {
            let ceiling = min(Duration.seconds(1 << (failures - 1)), .seconds(60))
            for _ in 0..<50 {
                let wait = policy.backoff(afterFailures: failures, retryAfter: nil)
                #expect(wait >= ceiling / 2 && wait <= ceiling, "after \(failures): \(wait)")
            }
        }
        #expect(policy.backoff(afterFailures: 1, retryAfter: .seconds(30)) == .seconds(30))
    }

    /// A server that answers the batch endpoint with `script`'s statuses in turn (0: the connection fails),
    /// then 200 for every item, noting when each attempt came.
    final class ScriptedServer: ClientTransport, @unchecked Sendable {
        let script: Mutex<[(status: Int, retryAfter: String?)]>
        let attempts = Mutex<[ContinuousClock.Instant]>([])

        init(_ script: [(status: Int, retryAfter: String?)]) {
            self.script = Mutex(script)
        }

        func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (
            HTTPResponse, HTTPBody?
        ) {
            self.attempts.withLock { $0.append(.now) }
            if let (status, retryAfter) = self.script.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
                if status == 0 { throw URLError(.cannotConnectToHost) }
                var fields = HTTPFields([HTTPField(name: .contentType, value: "application/problem+json")])
                if let retryAfter { fields[.retryAfter] = retryAfter }
                let problem = #"{"type":"/problems/unavailable","title":"Unavailable","status":\#(status)}"#
                return (HTTPResponse(status: .init(code: status), headerFields: fields), HTTPBody(problem))
            }
            let sent =
                try JSONSerialization.jsonObject(with: try await Data(collecting: body!, upTo: 1 << 20))
                as! [String: Any]
            let ids = (sent["events"] as! [[String: Any]]).map { $0["clientEventId"] as! String }
            let results = ids.enumerated().map {
                #"{"index":\#($0.offset),"clientEventId":"\#($0.element)","status":"created"}"#
            }
            let answer =
                #"{"results":[\#(results.joined(separator: ","))],"created":\#(ids.count),"replayed":0,"rejected":0}"#
            return (HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]), HTTPBody(answer))
        }
    }

    static func device(_ server: ScriptedServer, policy: SyncPolicy) async throws -> FitCircle {
        let session = StoredSession(
            userID: "u1",
            accessToken: "token",
            accessTokenExpiresAt: Date().addingTimeInterval(3_600),
            refreshToken: "refresh",
            refreshTokenExpiresAt: Date().addingTimeInterval(86_400)
        )
        return try await FitCircle(
            .init(
                baseURL: URL(string: "http://scripted")!,
                storageDirectory: FileManager.default.temporaryDirectory.appendingPathComponent(
                    "sdk-\(UUID().uuidString)"
                ),
                sessionStore: MemorySessionStore(session),
                syncPolicy: policy,
                transport: server
            )
        )
    }

    @Test func aBusyServerIsRetriedAfterItsRetryAfterAndTheStatusCountsTheFailures() async throws {
        let server = ScriptedServer([(503, "1"), (503, "1")])
        let device = try await Self.device(
            server,
            policy: SyncPolicy(initialBackoff: .milliseconds(10), attentionAfter: 2)
        )
        try await device.record(.steps(100, at: Date(), id: "s1"))
        var seen: [SyncStatus] = []
        let updates = await device.syncStatusUpdates()
        await device.startSyncing()
        for await status in updates {
            seen.append(status)
            if status.pending == 0 && !status.isSyncing { break }
        }
        await device.stopSyncing()
        let attempts = server.attempts.withLock { $0 }
        #expect(attempts.count == 3)
        // Each retry waited at least the second the server asked for, not the policy's 10 ms.
        for (before, after) in zip(attempts, attempts.dropFirst()) { #expect(after - before >= .milliseconds(950)) }
        #expect(seen.map(\.consecutiveFailures).max() == 2)
        #expect(seen.contains { $0.needsAttention })
        #expect(seen.last?.needsAttention == false && seen.last?.lastError == nil && seen.last?.lastSuccess != nil)
    }

    @Test func anUnreachableServerIsRetriedWithTheBackoffNotTheIdleMinute() async throws {
        let server = ScriptedServer([(0, nil), (0, nil)])
        let device = try await Self.device(
            server,
            policy: SyncPolicy(initialBackoff: .milliseconds(200), attentionAfter: 2)
        )
        try await device.record(.steps(100, at: Date(), id: "s1"))
        var failures: [Int] = []
        let updates = await device.syncStatusUpdates()
        await device.startSyncing()
        for await status in updates {
            failures.append(status.consecutiveFailures)
            if status.pending == 0 && !status.isSyncing { break }
        }
        await device.stopSyncing()
        let attempts = server.attempts.withLock { $0 }
        #expect(attempts.count == 3)
        #expect(failures.max() == 2)
        // 100–200 ms, then 200–400 ms: the backoff, not the minute an idle outbox waits.
        for (before, after) in zip(attempts, attempts.dropFirst()) {
            #expect(after - before >= .milliseconds(90) && after - before < .seconds(30))
        }
    }

    @Test func retryNowCutsALongBackoffShort() async throws {
        let server = ScriptedServer([(500, nil)])
        let device = try await Self.device(server, policy: SyncPolicy(initialBackoff: .seconds(600)))
        try await device.record(.steps(100, at: Date(), id: "s1"))
        let updates = await device.syncStatusUpdates()
        await device.startSyncing()
        var retried = false
        for await status in updates {
            if status.consecutiveFailures == 1 && !status.isSyncing && !retried {
                retried = true
                await device.retryNow()  // without it, the next attempt would be 5 to 10 minutes away
            }
            if status.pending == 0 { break }
        }
        await device.stopSyncing()
        #expect(server.attempts.withLock { $0.count } == 2)
    }
}
