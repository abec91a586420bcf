import FitCircleCore
import Foundation

/// A JSON value as the generated decoder would read it: a number is an integer only when `Int` decodes it.
enum JSONInput: Decodable {
    case null
    case bool
    case integer
    case number
    case string(String)
    case array([JSONInput])
    case object([String: JSONInput])

    init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer()
        if value.decodeNil() {
            self = .null
        } else if (try? value.decode(Bool.self)) != nil {
            self = .bool
        } else if (try? value.decode(Int.self)) != nil {
            self = .integer
        } else if (try? value.decode(Double.self)) != nil {
            self = .number
        } else if let text = try? value.decode(String.self) {
            self = .string(text)
        } else if let items = try? value.decode([JSONInput].self) {
            self = .array(items)
        } else {
            self = .object(try value.decode([String: JSONInput].self))
        }
    }

    /// The JSON Schema type names this value is an instance of.
    var kinds: Set<String> {
        switch self {
        case .null: ["null"]
        case .bool: ["boolean"]
        case .integer: ["integer", "number"]
        case .number: ["number"]
        case .string: ["string"]
        case .array: ["array"]
        case .object: ["object"]
        }
    }
}

/// Checks inputs against the document's schemas (`InputSchemas`) and names every field that is wrong, by the
/// same JSON path `ProblemDocument` uses (`events[2].type`), with what it must be in words an app developer
/// reads (never a Swift type). Only run after the generated decoder refused a request.
extension InputSchemas {
    /// Every violation in a JSON body of `operationID` (none when the body is not JSON at all, or the
    /// operation has no JSON body).
    func violations(ofBody body: Data, operationID: String) -> [FieldViolation] {
        guard let schema = self.operations[operationID]?.body,
            let value = try? JSONDecoder().decode(JSONInput.self, from: body)
        else { return [] }
        var found: [FieldViolation] = []
        self.check(value, against: schema, at: "", depth: 0, into: &found)
        return found
    }

    /// Every query item of `operationID` whose text cannot be its parameter's value.
    func violations(ofQuery items: [URLQueryItem], operationID: String) -> [FieldViolation] {
        self.violations(of: items.map { ($0.name, Substring($0.value ?? "")) }, self.operations[operationID]?.query)
    }

    /// Every path parameter of `operationID` whose text cannot be its value (an action it does not name).
    func violations(ofPath parameters: [String: Substring], operationID: String) -> [FieldViolation] {
        self.violations(of: parameters.sorted { $0.key < $1.key }.map { ($0, $1) }, self.operations[operationID]?.path)
    }

    private func violations(of items: [(String, Substring)], _ schemas: [String: InputSchema]?) -> [FieldViolation] {
        var found: [FieldViolation] = []
        for (name, text) in items {
            guard var schema = schemas?[name] else { continue }
            // A list is the parameter repeated (`workoutTypes=running&workoutTypes=cycling`): each is an item.
            if let shape = self.resolved(schema), shape.types.contains("array"), let items = shape.items {
                schema = items
            }
            self.check(self.textValue(String(text), for: schema), against: schema, at: name, depth: 0, into: &found)
        }
        return found
    }

    /// A parameter's text read as the JSON value its schema asks for, so the body's rules apply to it.
    private func textValue(_ text: String, for schema: InputSchema) -> JSONInput {
        switch self.resolved(schema)?.types.first {
        case "integer": Int(text) != nil ? .integer : .string(text)
        case "number": Double(text)?.isFinite == true ? .number : .string(text)
        case "boolean": text == "true" || text == "false" ? .bool : .string(text)
        default: .string(text)
        }
    }

    /// The shape a schema names, following references (nil for a name the document lacks).
    private func resolved(_ schema: InputSchema, depth: Int = 0) -> InputSchema.Shape? {
        switch schema {
        case .shape(let shape): shape
        case .reference(let name):
            depth < 32 ? self.components[name].flatMap { self.resolved($0, depth: depth + 1) } : nil
        }
    }

    private func check(
        _ value: JSONInput,
        against schema: InputSchema,
        at path: String,
        depth: Int,
        into found: inout [FieldViolation]
    ) {
        // A body nests no deeper than RequestBodyMiddleware's bound lets it; a schema that refers to itself
        // does not make this loop.
        guard depth < 64, let shape = self.resolved(schema) else { return }
        let field = path.isEmpty ? "body" : path
        for part in shape.allOf { self.check(value, against: part, at: path, depth: depth + 1, into: &found) }
        if !shape.oneOf.isEmpty {
            let tries = shape.oneOf.map { form in
                var violations: [FieldViolation] = []
                self.check(value, against: form, at: path, depth: depth + 1, into: &violations)
                return violations
            }
            guard !tries.contains(where: \.isEmpty) else { return }
            let fitting = zip(shape.oneOf, tries).filter { form, _ in
                self.resolved(form).map { $0.types.isEmpty || !value.kinds.isDisjoint(with: $0.types) } ?? false
            }
            if fitting.count == 1, let (_, violations) = fitting.first {
                found += violations
            } else {
                found.append(FieldViolation(field: field, reason: "matches none of the forms it may take"))
            }
            return
        }
        if !shape.types.isEmpty, value.kinds.isDisjoint(with: shape.types) {
            let named = shape.types.filter { $0 != "null" }.map(Self.describe).joined(separator: " or ")
            found.append(FieldViolation(field: field, reason: "must be \(named)\(value.isNull ? ", not null" : "")"))
            return
        }
        switch value {
        case .string(let text):
            if let values = shape.values, !values.contains(text) {
                found.append(
                    FieldViolation(
                        field: field,
                        reason: "must be one of \(values.joined(separator: ", ")) (not '\(text.prefix(64))')"
                    )
                )
            } else if let format = shape.format, let example = Self.formats[format], !Self.fits(text, format) {
                found.append(FieldViolation(field: field, reason: "must be \(example)"))
            }
        case .array(let items):
            guard let schema = shape.items else { return }
            for (index, item) in items.enumerated() {
                self.check(
                    item,
                    against: schema,
                    at: "\(path.isEmpty ? "body" : path)[\(index)]",
                    depth: depth + 1,
                    into: &found
                )
            }
        case .object(let members):
            for name in shape.required where members[name] == nil {
                found.append(FieldViolation(field: Self.join(path, name), reason: "is required"))
            }
            for (name, member) in members.sorted(by: { $0.key < $1.key }) {
                if let property = shape.properties[name] {
                    // An optional property sent as null is read as absent.
                    guard !(member.isNull && !shape.required.contains(name)) else { continue }
                    self.check(member, against: property, at: Self.join(path, name), depth: depth + 1, into: &found)
                } else if let additional = shape.additional {
                    self.check(member, against: additional, at: Self.join(path, name), depth: depth + 1, into: &found)
                }
            }
        case .null, .bool, .integer, .number:
            return
        }
    }

    private static func join(_ path: String, _ name: String) -> String { path.isEmpty ? name : "\(path).\(name)" }

    private static func describe(_ type: String) -> String {
        switch type {
        case "string": "a string"
        case "integer": "an integer"
        case "number": "a number"
        case "boolean": "true or false"
        case "array": "an array"
        case "object": "an object"
        default: type
        }
    }

    /// The formats the generated decoder reads into a type of its own, and how each is written.
    private static let formats = [
        "date-time": "a date and time with its offset, such as 2026-11-29T07:30:00Z",
        "date": "a date, YYYY-MM-DD",
    ]

    private static func fits(_ text: String, _ format: String) -> Bool {
        switch format {
        case "date-time":
            (try? Date.ISO8601FormatStyle().parse(text)) != nil
                || (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text)) != nil
        case "date": LocalDate(iso: text) != nil
        default: true
        }
    }
}

extension JSONInput {
    var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}
