public import FitCircleCore
import Foundation

/// Makes sortable unique ids (UUID version 7: a millisecond timestamp, then random bits).
public struct IDGenerator: Sendable {
    let clock: WallClock

    public init(clock: WallClock) {
        self.clock = clock
    }

    public func make<Subject>(_: Subject.Type = Subject.self) -> Identifier<Subject> {
        Identifier(self.uuidV7().lowercased())
    }

    func uuidV7() -> String {
        let milliseconds = UInt64(max(0, self.clock.now().timeIntervalSince1970 * 1000))
        var bytes = Self.randomBytes()
        for index in 0..<6 { bytes[index] = UInt8(truncatingIfNeeded: milliseconds >> (8 * (5 - UInt64(index)))) }
        return Self.uuidString(bytes, version: 7)
    }

    /// A random id (UUID version 4), as request ids are. Foundation's `UUID()` opens /dev/urandom on every
    /// call (4 % of a small request's time); this draws twice from the system generator.
    public static func randomUUID() -> String {
        Self.uuidString(Self.randomBytes(), version: 4).lowercased()
    }

    private static func randomBytes() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        let (high, low): (UInt64, UInt64) = (generator.next(), generator.next())
        return (0..<16).map { index in UInt8(truncatingIfNeeded: (index < 8 ? high : low) >> (8 * UInt64(index % 8))) }
    }

    private static func uuidString(_ bytes: [UInt8], version: UInt8) -> String {
        var bytes = bytes
        bytes[6] = version << 4 | (bytes[6] & 0x0F)
        bytes[8] = 0x80 | (bytes[8] & 0x3F)
        let uuid = UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            )
        )
        return uuid.uuidString
    }
}

/// Random secrets: refresh tokens and server keys.
enum Secrets {
    /// `count` random bytes as unpadded base64url.
    static func random(bytes count: Int = 32) -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64URLEncoded()
    }
}
