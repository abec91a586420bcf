/// One property value of an analytics event: a JSON string, integer, number or boolean. Properties are
/// flat — the shape every analytics service takes — so an event is a name, a time and a map of these.
public enum EventValue: Equatable, Hashable, Sendable, Codable {
    case string(String)
    case integer(Int)
    case number(Double)
    case boolean(Bool)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let flag = try? container.decode(Bool.self) {
            self = .boolean(flag)
        } else if let whole = try? container.decode(Int.self) {
            self = .integer(whole)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let text): try container.encode(text)
        case .integer(let whole): try container.encode(whole)
        case .number(let number): try container.encode(number)
        case .boolean(let flag): try container.encode(flag)
        }
    }

    public var string: String? { if case .string(let text) = self { text } else { nil } }
    public var boolean: Bool? { if case .boolean(let flag) = self { flag } else { nil } }

    /// The value as a number, when it is one (an integer counts).
    public var number: Double? {
        switch self {
        case .integer(let whole): Double(whole)
        case .number(let number): number
        default: nil
        }
    }
}
