import FitCircleCore

/// What `openapi.yaml` says an input must look like, as much of JSON Schema as decides whether a value has
/// the right shape: its types, enumerations, formats, properties and items. It is read once, with the route
/// table, so that a request the generated decoder refused — the decoder stops at the first error and names
/// Swift types — is answered with every field that is wrong and what each must be (`InputCheck`).
indirect enum InputSchema: Sendable {
    /// `$ref: '#/components/schemas/<name>'`.
    case reference(String)
    case shape(Shape)

    struct Shape: Sendable {
        /// `type` (one or several; empty: any).
        var types: [String] = []
        /// `enum`, each value as written.
        var values: [String]? = nil
        var format: String? = nil
        var properties: [String: InputSchema] = [:]
        var required: [String] = []
        /// `additionalProperties` when it is a schema (a map such as a preference per type).
        var additional: InputSchema? = nil
        /// Whether an object may hold members its `properties` do not name: `additionalProperties` is `true`
        /// or a schema, or no property is named at all (a free-form object).
        var takesOthers: Bool { self.additional != nil || self.othersAllowed || self.properties.isEmpty }
        /// `additionalProperties: true`.
        var othersAllowed = false
        var items: InputSchema? = nil
        var allOf: [InputSchema] = []
        /// `oneOf` and `anyOf`: the value must be one of these.
        var oneOf: [InputSchema] = []
    }

    /// The schema of a parsed YAML node (`Yams.load`): unknown keywords are ignored.
    init(_ node: Any) {
        guard let fields = node as? [String: Any] else {
            self = .shape(Shape())
            return
        }
        if let reference = fields["$ref"] as? String {
            self = .reference(String(reference.split(separator: "/").last ?? ""))
            return
        }
        var shape = Shape()
        if let type = fields["type"] as? String {
            shape.types = [type]
        } else if let types = fields["type"] as? [Any] {
            shape.types = types.compactMap { $0 as? String }
        }
        shape.values = (fields["enum"] as? [Any]).map { $0.map { "\($0)" } }
        shape.format = fields["format"] as? String
        shape.properties = (fields["properties"] as? [String: Any] ?? [:]).mapValues(InputSchema.init)
        shape.required = (fields["required"] as? [Any] ?? []).compactMap { $0 as? String }
        if let additional = fields["additionalProperties"] as? [String: Any] {
            shape.additional = InputSchema(additional)
        }
        shape.othersAllowed = fields["additionalProperties"] as? Bool == true
        shape.items = fields["items"].map(InputSchema.init)
        shape.allOf = (fields["allOf"] as? [Any] ?? []).map(InputSchema.init)
        shape.oneOf = ((fields["oneOf"] as? [Any] ?? []) + (fields["anyOf"] as? [Any] ?? [])).map(InputSchema.init)
        self = .shape(shape)
    }
}

/// Every operation's inputs as the document declares them: the JSON body's schema and each query and path
/// parameter's, by operation id, with the named schemas they refer to.
struct InputSchemas: Sendable {
    struct Inputs: Sendable {
        var body: InputSchema?
        var bodyRequired = false
        var query: [String: InputSchema] = [:]
        var path: [String: InputSchema] = [:]
    }

    let components: [String: InputSchema]
    let operations: [String: Inputs]

    init(document: [String: Any]) {
        let components = document["components"] as? [String: Any] ?? [:]
        self.components = (components["schemas"] as? [String: Any] ?? [:]).mapValues(InputSchema.init)
        let parameters = components["parameters"] as? [String: Any] ?? [:]
        var operations: [String: Inputs] = [:]
        for (_, item) in document["paths"] as? [String: Any] ?? [:] {
            for (_, value) in item as? [String: Any] ?? [:] {
                guard let operation = value as? [String: Any], let id = operation["operationId"] as? String else {
                    continue
                }
                var inputs = Inputs()
                let requestBody = operation["requestBody"] as? [String: Any]
                inputs.bodyRequired = requestBody?["required"] as? Bool ?? false
                let body = requestBody?["content"] as? [String: Any]
                inputs.body = ((body?["application/json"] as? [String: Any])?["schema"]).map(InputSchema.init)
                for parameter in operation["parameters"] as? [Any] ?? [] {
                    var fields = parameter as? [String: Any] ?? [:]
                    if let reference = fields["$ref"] as? String, let name = reference.split(separator: "/").last {
                        fields = parameters[String(name)] as? [String: Any] ?? [:]
                    }
                    guard let name = fields["name"] as? String, let schema = fields["schema"] else { continue }
                    switch fields["in"] as? String {
                    case "query": inputs.query[name] = InputSchema(schema)
                    case "path": inputs.path[name] = InputSchema(schema)
                    default: continue
                    }
                }
                operations[id] = inputs
            }
        }
        self.operations = operations
    }
}
