/// Any JSON value, kept as written: what an experiment variant's overlay is made of, and what a rule
/// profile becomes to have an overlay merged onto it.
public indirect enum JSONTree: Equatable, Sendable, Codable {
    case null
    case bool(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    case array([JSONTree])
    case object([String: JSONTree])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONTree].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONTree].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The members of an object (none for anything else).
    public var members: [String: JSONTree]? {
        if case .object(let members) = self { members } else { nil }
    }

    /// RFC 7386's merge patch: an object's members are merged one by one (`null` removes one), anything
    /// else replaces what was there.
    public func merging(_ patch: JSONTree) -> JSONTree {
        guard case .object(let changes) = patch else { return patch }
        var merged = self.members ?? [:]
        for (key, change) in changes {
            if change == .null {
                merged[key] = nil
            } else {
                merged[key] = (merged[key] ?? .null).merging(change)
            }
        }
        return .object(merged)
    }
}
