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
            self.fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(self.fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else { throw TestSetupError("connect failed: \(errno)") }
        }

        deinit { close(self.fd) }

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
        try #require(FileManager.default.isExecutableFile(atPath: CrashDurabilityTests.binary.path), "build the fitcircle product first")
        let location = try await Backend.sqlite.makeLocation()
        defer { Task { await Backend.drop(location) } }
        let server = try await CrashDurabilityTests.Server.start(
            database: CrashDurabilityTests.url(of: location),
            environment: ["FITCIRCLE_HTTP_IDLE_SECONDS": "1", "FITCIRCLE_HTTP_REQUEST_READ_SECONDS": "2"])
        defer { server.kill() }
        // 40 bytes a quarter second apart: 10 s, if nobody stopped it.
        let forty = String(repeating: "a", count: 40)

        // Headers a byte at a time: bytes that make no whole head are not activity.
        let headers = try RawConnection(port: server.port)
        #expect(headers.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: "))
        let headersCut = try #require(try await headers.trickle(forty, every: .milliseconds(250)), "the connection stayed open")
        #expect(headersCut < .seconds(5))

        // A whole head, then a body a byte at a time: the idle timer sees activity, the read deadline does not.
        let body = try RawConnection(port: server.port)
        #expect(body.send("POST /api/auth/dev HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n"))
        let bodyCut = try #require(try await body.trickle(forty, every: .milliseconds(250)), "the connection stayed open")
        #expect(bodyCut < .seconds(6))

        // A client that asks in time is served as ever.
        #expect(try await server.get("/healthz").0 == 200)
    }
}
