import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One TCP connection to a local port, written to by hand: for what no HTTP client would send (a request
/// trickled a byte at a time, a connection reset mid-stream).
public final class RawConnection {
    public let fd: Int32

    public init(port: Int) throws {
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
    public func resetOnClose() {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(self.fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
    }

    /// Sends `text`; false once the server has closed the connection.
    public func send(_ text: String) -> Bool {
        if self.isClosedByPeer { return false }
        let bytes = Array(text.utf8)
        return Glibc.send(self.fd, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count
    }

    /// Whether the server has closed its side (a read that would not block answers end of stream).
    public var isClosedByPeer: Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let read = recv(self.fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if read == 0 { return true }
            if read < 0 { return errno != EAGAIN && errno != EWOULDBLOCK }
        }
    }

    /// The status code of the answer that arrives within `limit`, if one does.
    public func status(within limit: Duration) async throws -> Int? {
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
    public func trickle(_ text: String, every interval: Duration) async throws -> Duration? {
        let started = ContinuousClock.now
        for character in text {
            guard self.send(String(character)) else { return ContinuousClock.now - started }
            try await Task.sleep(for: interval)
        }
        return nil
    }
}
