import FitCircleCore

/// Members of a JSON body that the document does not name are refused (API review I41): ignoring them made
/// `{"type": …, "enabled": false}` change nothing and answer 200, and a misspelt optional field
/// (`timezone` for `timeZone`) look accepted. An object whose schema names no properties, or allows others
/// (`additionalProperties`), takes any member: event properties, maps of preferences.
extension InputSchemas {
    /// Every member of `document` (a body as `JSONSerialization` reads it) that no schema of
    /// `operationID`'s body names, by its JSON path, with the names its object takes.
    func unknownFields(ofBody document: Any, operationID: String) -> [FieldViolation] {
        guard let schema = self.operations[operationID]?.body else { return [] }
        var found: [FieldViolation] = []
        self.unknown(in: document, against: schema, at: "", depth: 0, into: &found)
        return found
    }

    private func unknown(
        in value: Any,
        against schema: InputSchema,
        at path: String,
        depth: Int,
        into found: inout [FieldViolation]
    ) {
        guard depth < 64, let shape = self.shape(of: schema) else { return }
        if !shape.oneOf.isEmpty {
            // The value is one of the forms: a member is unknown only when every form lacks it, and then the
            // form it comes closest to names what is wrong.
            var closest: [FieldViolation]?
            for form in shape.oneOf {
                var violations: [FieldViolation] = []
                self.unknown(in: value, against: form, at: path, depth: depth + 1, into: &violations)
                guard !violations.isEmpty else { return }
                if violations.count < closest?.count ?? .max { closest = violations }
            }
            found += closest ?? []
            return
        }
        switch value {
        case let items as [Any]:
            guard let schema = shape.items else { return }
            for (index, item) in items.enumerated() {
                self.unknown(
                    in: item,
                    against: schema,
                    at: "\(path.isEmpty ? "body" : path)[\(index)]",
                    depth: depth + 1,
                    into: &found
                )
            }
        case let members as [String: Any]:
            for (name, member) in members.sorted(by: { $0.key < $1.key }) {
                let field = path.isEmpty ? name : "\(path).\(name)"
                if let property = shape.properties[name] ?? shape.additional {
                    self.unknown(in: member, against: property, at: field, depth: depth + 1, into: &found)
                } else if !shape.takesOthers {
                    let names = shape.properties.keys.sorted()
                    let listed = names.prefix(16).joined(separator: ", ") + (names.count > 16 ? ", …" : "")
                    found.append(
                        FieldViolation(
                            field: field,
                            reason: "is not a field of \(path.isEmpty ? "this body" : path) (its fields: \(listed))"
                        )
                    )
                }
            }
        default:
            return
        }
    }

    /// A schema's shape with the members of its `allOf` parts merged in: an object is all of them at once.
    private func shape(of schema: InputSchema, depth: Int = 0) -> InputSchema.Shape? {
        guard depth < 32 else { return nil }
        var shape: InputSchema.Shape
        switch schema {
        case .shape(let own): shape = own
        case .reference(let name):
            guard let named = self.components[name] else { return nil }
            return self.shape(of: named, depth: depth + 1)
        }
        for part in shape.allOf {
            guard let merged = self.shape(of: part, depth: depth + 1) else { continue }
            shape.properties.merge(merged.properties) { own, _ in own }
            shape.additional = shape.additional ?? merged.additional
            shape.othersAllowed = shape.othersAllowed || merged.othersAllowed
            shape.items = shape.items ?? merged.items
        }
        return shape
    }
}
