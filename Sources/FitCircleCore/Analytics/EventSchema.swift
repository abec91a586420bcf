/// What an app's event may carry, as its rule profile declares it under `events:` (spec 003's
/// `weekly_horoscope_viewed`, `compatibility_weekly_viewed`, `streak_updated`, and each app's own). A
/// property not declared is refused, so a typo in an app shows up as a 422 rather than as a silent column.
public struct EventSchema: Equatable, Sendable, Codable {
    public var description: String
    public var properties: [String: Property]

    public init(description: String, properties: [String: Property] = [:]) {
        self.description = description
        self.properties = properties
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.description = try container.decode(String.self, forKey: .description)
        self.properties = try container.decodeIfPresent([String: Property].self, forKey: .properties) ?? [:]
    }

    public struct Property: Equatable, Sendable, Codable {
        public var type: PropertyType
        public var required: Bool
        /// The values a string may take; absent: any string.
        public var values: [String]?

        public init(type: PropertyType, required: Bool = false, values: [String]? = nil) {
            self.type = type
            self.required = required
            self.values = values
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.type = try container.decode(PropertyType.self, forKey: .type)
            self.required = try container.decodeIfPresent(Bool.self, forKey: .required) ?? false
            self.values = try container.decodeIfPresent([String].self, forKey: .values)
        }
    }

    public enum PropertyType: String, CaseIterable, Equatable, Sendable, Codable {
        case string, integer, number, boolean
    }

    public static let maximumStringLength = 500

    /// Checks `properties` against the schema, naming each bad one under `field`.
    public func check(_ properties: [String: EventValue], into validator: inout Validator, field: String) {
        for (name, property) in self.properties.sorted(by: { $0.key < $1.key })
        where property.required && properties[name] == nil {
            validator.fail("\(field).\(name)", "is required")
        }
        for (name, value) in properties.sorted(by: { $0.key < $1.key }) {
            guard let property = self.properties[name] else {
                validator.fail("\(field).\(Self.printable(name))", "is not a property of this event")
                continue
            }
            let path = "\(field).\(name)"
            switch (property.type, value) {
            case (.string, .string(let text)):
                validator.check(
                    text.unicodeScalars.count <= Self.maximumStringLength
                        && !text.unicodeScalars.contains { $0.properties.generalCategory == .control },
                    path,
                    "must be at most \(Self.maximumStringLength) characters, without control characters"
                )
                if let values = property.values {
                    validator.check(values.contains(text), path, "must be one of \(values.joined(separator: ", "))")
                }
            case (.integer, .integer), (.boolean, .boolean):
                break
            case (.number, .integer):
                break
            case (.number, .number(let number)):
                validator.check(number.isFinite, path, "must be a finite number")
            default:
                validator.fail(path, "must be \(property.type == .integer ? "an" : "a") \(property.type.rawValue)")
            }
        }
    }

    /// A name as it may appear in a problem: at most 64 characters, control characters dropped.
    static func printable(_ name: String) -> String {
        String(
            String.UnicodeScalarView(
                name.unicodeScalars.filter { $0.properties.generalCategory != .control }.prefix(64)
            )
        )
    }
}
