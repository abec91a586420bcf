/// A typed identifier: `Identifier<User>` and `Identifier<Session>` cannot be mixed up.
public struct Identifier<Subject>: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public var rawValue: String

    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    public init(from decoder: any Decoder) throws {
        self.rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(self.rawValue)
    }

    public var description: String { self.rawValue }

    /// Whether it could name something FitCircle made (a UUID's letters, digits and hyphens, at most 64):
    /// anything else names nothing, and is refused before it reaches a query.
    public var isWellFormed: Bool {
        (1...64).contains(self.rawValue.utf8.count)
            && self.rawValue.utf8.allSatisfy { byte in
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || byte == UInt8(ascii: "-")
            }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
