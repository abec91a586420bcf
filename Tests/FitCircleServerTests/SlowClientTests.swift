import FitCircleTesting
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A client that holds a connection without finishing its request (slow-loris) is cut off: the real
/// `fitcircle` binary, with `http.idleSeconds` 1 and `http.requestReadSeconds` 2, against raw sockets.
struct SlowClientTests {
    /// One TCP connection written to by hand.
    final class RawConnection {
        let fd: Int32

        init(port: Int) throws {
            // Close-on-exec: a server another test spawns meanwhile must not inherit this socket, or closing it
            // here would not close the connection (the child would still hold it open).
            self.fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(self.fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard connected == 0 else { throw TestSetupError("connect failed: \(errno)") }
        }

        deinit { close(self.fd) }

        /// Makes the close (at deinit) a reset rather than an orderly goodbye (an app killed, a socket dropped).
        func resetOnClose() {
            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
            _ = setsockopt(self.fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        }

        /// Sends `text`; false once the server has closed the connection.
        func send(_ text: String) -> Bool {
            if self.isClosedByPeer { return false }
            let bytes = Array(text.utf8)
            return Glibc.send(self.fd, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count
        }

        /// Whether the server has closed its side (a read that would not block answers end of stream).
        var isClosedByPeer: Bool {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let read = recv(self.fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                if read == 0 { return true }
                if read < 0 { return errno != EAGAIN && errno != EWOULDBLOCK }
            }
        }

        /// The status code of the answer that arrives within `limit`, if one does.
        func status(within limit: Duration) async throws -> Int? {
            let deadline = ContinuousClock.now + limit
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while ContinuousClock.now < deadline {
                let read = recv(self.fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                if read > 0 { received += buffer[..<read] }
                let text = String(decoding: received, as: UTF8.self)
                if text.hasPrefix("HTTP/1.1 "), text.count >= 12 { return Int(text.dropFirst(9).prefix(3)) }
                if read == 0 { return nil }
                try await Task.sleep(for: .milliseconds(20))
            }
            return nil
        }

        /// Trickles `text` a byte every `interval` until the server closes; answers how long that took, or nil
        /// if all of it went through.
        func trickle(_ text: String, every interval: Duration) async throws -> Duration? {
            let started = ContinuousClock.now
            for character in text {
                guard self.send(String(character)) else { return ContinuousClock.now - started }
                try await Task.sleep(for: interval)
            }
            return nil
        }
    }

    @Test func aClientThatNeverFinishesItsHeadersOrItsBodyIsCutOff() async throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: CrashDurabilityTests.binary.path),
            "build the fitcircle product first"
        )
        let location = try await Backend.sqlite.makeLocation()
        defer { Task { await Backend.drop(location) } }
        let server = try await CrashDurabilityTests.Server.start(
            database: CrashDurabilityTests.url(of: location),
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
            FileManager.default.isExecutableFile(atPath: CrashDurabilityTests.binary.path),
            "build the fitcircle product first"
        )
        let location = try await Backend.sqlite.makeLocation()
        defer { Task { await Backend.drop(location) } }
        let server = try await CrashDurabilityTests.Server.start(
            database: CrashDurabilityTests.url(of: location),
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
            FileManager.default.isExecutableFile(atPath: CrashDurabilityTests.binary.path),
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
            let server = try await CrashDurabilityTests.Server.start(
                database: CrashDurabilityTests.url(of: location),
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
