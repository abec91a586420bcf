import Foundation

/// Whether a host names this machine or a private network: loopback, private (RFC 1918, IPv6 unique local),
/// link-local (the cloud metadata service at 169.254.169.254 among them), unspecified, or carrier-grade NAT.
/// An operator's webhook may not point there unless the server is told it may (`webhooks.allowPrivateTargets`):
/// otherwise whoever registers one can make the server call what only it can reach.
public enum PrivateAddress {
    /// `host` as written in a URL: a name (`localhost` and `*.localhost` count as loopback), an IPv4 address,
    /// or an IPv6 address with or without its brackets.
    public static func isPrivate(host: String) -> Bool {
        // A name may end with the root's dot ("localhost." is localhost).
        var host = host.lowercased().trimmingCharacters(in: ["[", "]"])
        while host.hasSuffix(".") { host.removeLast() }
        if host == "localhost" || host.hasSuffix(".localhost") { return true }
        if let address = Self.ipv4(host) ?? Self.ipv6(host) { return Self.isPrivate(address: address) }
        return false
    }

    /// The four bytes of a dotted IPv4 address.
    static func ipv4(_ text: String) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var bytes: [UInt8] = []
        for part in parts {
            guard !part.isEmpty, part.count <= 3, part.allSatisfy(\.isASCII), let value = UInt8(part) else {
                return nil
            }
            bytes.append(value)
        }
        return bytes
    }

    /// An address as bytes: 4 for IPv4, 16 for IPv6 (what a resolver answers).
    public static func isPrivate(address: [UInt8]) -> Bool {
        switch address.count {
        case 4: Self.isPrivate(ipv4: address)
        case 16: Self.isPrivate(ipv6: address)
        default: false
        }
    }

    static func isPrivate(ipv4 v4: [UInt8]) -> Bool {
        switch (v4[0], v4[1]) {
        case (0, _), (10, _), (127, _): return true
        case (100, 64...127): return true  // carrier-grade NAT
        case (169, 254): return true  // link-local, the metadata service
        case (172, 16...31), (192, 168): return true
        default: return false
        }
    }

    /// The sixteen bytes of an IPv6 address (with `::`, and an IPv4 tail as in `::ffff:10.0.0.1`).
    static func ipv6(_ text: String) -> [UInt8]? {
        guard text.contains(":"), text.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { return nil }
        let halves = text.components(separatedBy: "::")
        guard halves.count <= 2 else { return nil }
        func groups(_ part: String) -> [UInt16]? {
            guard !part.isEmpty else { return [] }
            var result: [UInt16] = []
            for piece in part.split(separator: ":", omittingEmptySubsequences: false) {
                if piece.contains("."), let v4 = Self.ipv4(String(piece)) {
                    result += [UInt16(v4[0]) << 8 | UInt16(v4[1]), UInt16(v4[2]) << 8 | UInt16(v4[3])]
                } else {
                    guard (1...4).contains(piece.count), let value = UInt16(piece, radix: 16) else { return nil }
                    result.append(value)
                }
            }
            return result
        }
        guard let head = groups(halves[0]), let tail = halves.count == 2 ? groups(halves[1]) : [] else { return nil }
        let missing = 8 - head.count - tail.count
        guard halves.count == 2 ? missing >= 1 : missing == 0 else { return nil }
        let all = head + Array(repeating: 0, count: max(missing, 0)) + tail
        return all.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    }

    static func isPrivate(ipv6 v6: [UInt8]) -> Bool {
        if v6.allSatisfy({ $0 == 0 }) { return true }  // ::
        if v6[0..<15].allSatisfy({ $0 == 0 }) && v6[15] == 1 { return true }  // ::1
        if v6[0] & 0xFE == 0xFC { return true }  // fc00::/7, unique local
        if v6[0] == 0xFE && v6[1] & 0xC0 == 0x80 { return true }  // fe80::/10, link-local
        // An IPv4 address mapped (::ffff:a.b.c.d) or compatible (::a.b.c.d) is judged as that address.
        if v6[0..<10].allSatisfy({ $0 == 0 }) && ((v6[10] == 0xFF && v6[11] == 0xFF) || (v6[10] == 0 && v6[11] == 0)) {
            return Self.isPrivate(ipv4: Array(v6[12..<16]))
        }
        return false
    }
}
