import FitCircleTesting
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A client that holds a connection without finishing its request (slow-loris) is cut off: the real
/// `fitcircle` binary, with `http.idleSeconds` 1 and `http.requestReadSeconds` 2, against raw sockets.
struct SlowClientTests {
    @Test func aClientThatNeverFinishesItsHeadersOrItsBodyIsCutOff() async throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: ServerProcess.binary.path),
            "build the fitcircle product first"
        )
        let location = try await Backend.sqlite.makeLocation()
        defer { Task { await Backend.drop(location) } }
        let server = try await ServerProcess.start(
            database: location.serveURL,
            environment: ["FITCIRCLE_HTTP_IDLE_SECONDS": "1", "FITCIRCLE_HTTP_REQUEST_READ_SECONDS": "2"]
        )
        defer { server.kill() }
        // 40 bytes a quarter second apart: 10 s, if nobody stopped it.
        let forty = String(repeating: "a", count: 40)

        // Headers a byte at a time: bytes that make no whole head are not activity.
        let headers = try RawConnection(port: server.port)
        #expect(headers.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: "))
        let headersCut = try #require(
            try await headers.trickle(forty, every: .milliseconds(250)),
            "the connection stayed open"
        )
        #expect(headersCut < .seconds(5))

        // A whole head, then a body a byte at a time: the idle timer sees activity, the read deadline does not.
        let body = try RawConnection(port: server.port)
        #expect(
            body.send(
                "POST /api/auth/dev HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n"
            )
        )
        let bodyCut = try #require(
            try await body.trickle(forty, every: .milliseconds(250)),
            "the connection stayed open"
        )
        #expect(bodyCut < .seconds(6))

        // A client that asks in time is served as ever.
        #expect(try await server.get("/healthz").0 == 200)
    }

    /// Issue 41: 530 connections each promising a 1,000-byte body and sending one byte held every place of
    /// the node for the 30 s read deadline (everyone else got 503 while `/readyz` said ready). A body that
    /// trickles in now holds no place of the node, one address holds at most its small share, and a request
    /// without credentials has a short deadline for its body.
    @Test func bodiesThatTrickleInHoldNoPlaceOfTheNodeAndOneAddressOnlyItsShare() async throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: ServerProcess.binary.path),
            "build the fitcircle product first"
        )
        let location = try await Backend.sqlite.makeLocation()
        defer { Task { await Backend.drop(location) } }
        let server = try await ServerProcess.start(
            database: location.serveURL,
            environment: [
                "FITCIRCLE_LIMITS_MAX_IN_FLIGHT": "8", "FITCIRCLE_LIMITS_PER_ADDRESS_BODIES": "4",
                "FITCIRCLE_LIMITS_TRUST_FORWARDED_FOR": "true",
                "FITCIRCLE_HTTP_ANONYMOUS_REQUEST_READ_SECONDS": "3",
            ]
        )
        defer { server.kill() }
        func trickling(from address: String) throws -> RawConnection {
            let connection = try RawConnection(port: server.port)
            _ = connection.send(
                "POST /api/auth/refresh HTTP/1.1\r\nHost: localhost\r\nX-Forwarded-For: \(address)\r\n"
                    + "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"
            )
            return connection
        }

        // Three times the node's places, each from its own address (documentation addresses, only ever a header).
        let many = try (0..<24).map { try trickling(from: "203.0.113.\($0)") }
        try await Task.sleep(for: .milliseconds(300))
        for _ in 0..<5 { #expect(try await server.get("/openapi.yaml").0 == 200) }
        #expect(try await server.get("/readyz").0 == 200)

        // One address opens more than its share: the rest are refused at once.
        let one = try (0..<8).map { _ in try trickling(from: "198.51.100.7") }
        var refused = 0
        for connection in one { if try await connection.status(within: .milliseconds(500)) == 429 { refused += 1 } }
        #expect(refused == 4, "\(refused) of 8 refused; the share is 4")

        // No credentials: the body has 3 s, not the 30 s of a signed-in request.
        try await Task.sleep(for: .seconds(4))
        let stillOpen = many.filter { !$0.isClosedByPeer }.count
        #expect(stillOpen == 0, "\(stillOpen) still open")
        #expect(try await server.get("/healthz").0 == 200)
    }

    /// `/metrics` was public (issue 41): without `metrics.token` it answers only this machine (not what a
    /// proxy forwards), and with one only a scraper that sends it.
    @Test func metricsAnswerThisMachineOrTheirTokenOnly() async throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: ServerProcess.binary.path),
            "build the fitcircle product first"
        )
        func status(_ port: Int, _ headers: String) async throws -> Int? {
            let connection = try RawConnection(port: port)
            _ = connection.send("GET /metrics HTTP/1.1\r\nHost: localhost\r\n\(headers)Connection: close\r\n\r\n")
            return try await connection.status(within: .seconds(5))
        }
        for token in [nil, "a-scraper-token-of-some-length"] {
            let location = try await Backend.sqlite.makeLocation()
            defer { Task { await Backend.drop(location) } }
            let server = try await ServerProcess.start(
                database: location.serveURL,
                environment: token.map { ["FITCIRCLE_METRICS_TOKEN": $0] } ?? [:]
            )
            defer { server.kill() }
            if let token {
                #expect(try await status(server.port, "") == 401)
                #expect(try await status(server.port, "Authorization: Bearer wrong-token-of-some-length\r\n") == 401)
                #expect(try await status(server.port, "Authorization: Bearer \(token)\r\n") == 200)
            } else {
                #expect(try await status(server.port, "") == 200)
                #expect(try await status(server.port, "X-Forwarded-For: 203.0.113.7\r\n") == 403)
            }
        }
    }
}
