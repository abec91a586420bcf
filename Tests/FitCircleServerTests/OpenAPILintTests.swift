import FitCircleAPI
import FitCircleCore
import Foundation
import Testing
import Yams

@testable import FitCircleServer

/// Rules of the API's contract that a schema validator does not check (issue 46), each over the parsed
/// document: a rule lists every operation or property that breaks it, so a new operation that forgets one
/// fails here with its name.
struct OpenAPILintTests {
    struct Operation {
        var method: String
        var path: String
        var id: String
        var fields: [String: Any]

        var responses: [String: Any] { self.fields["responses"] as? [String: Any] ?? [:] }
        var isPublic: Bool { (self.fields["security"] as? [Any])?.isEmpty == true }
        var parameterReferences: [String] {
            (self.fields["parameters"] as? [Any] ?? []).compactMap { ($0 as? [String: Any])?["$ref"] as? String }
        }
        /// The parameters written in place (not references), by name.
        var query: [String: [String: Any]] {
            let written = (self.fields["parameters"] as? [Any] ?? []).compactMap { $0 as? [String: Any] }
            return Dictionary(
                written.filter { $0["in"] as? String == "query" }.map { ($0["name"] as? String ?? "", $0) },
                uniquingKeysWith: { first, _ in first }
            )
        }
        /// The properties of the JSON body of the 200 answer (a `$ref` followed).
        func answerProperties(in document: [String: Any]) -> [String: Any] {
            let ok = self.responses["200"] as? [String: Any]
            let json = (ok?["content"] as? [String: Any])?["application/json"] as? [String: Any]
            var schema = json?["schema"] as? [String: Any] ?? [:]
            if let reference = schema["$ref"] as? String, let name = reference.split(separator: "/").last {
                let schemas = (document["components"] as? [String: Any])?["schemas"] as? [String: Any]
                schema = schemas?[String(name)] as? [String: Any] ?? [:]
            }
            return schema["properties"] as? [String: Any] ?? [:]
        }
    }

    /// A schema, its `$ref` followed.
    static func resolved(_ schema: Any, in document: [String: Any]) -> [String: Any]? {
        guard let schema = schema as? [String: Any] else { return nil }
        guard let reference = schema["$ref"] as? String, let name = reference.split(separator: "/").last else {
            return schema
        }
        return ((document["components"] as? [String: Any])?["schemas"] as? [String: Any])?[String(name)]
            as? [String: Any]
    }

    /// The document as parsed YAML, read again by each test (a few milliseconds).
    static var document: [String: Any] {
        guard let yaml = try? OpenAPIDocument.yaml(), let loaded = try? Yams.load(yaml: yaml) as? [String: Any] else {
            return [:]
        }
        return loaded
    }

    static var operations: [Operation] {
        let paths = Self.document["paths"] as? [String: Any] ?? [:]
        return paths.flatMap { path, item in
            (item as? [String: Any] ?? [:]).compactMap { method, value -> Operation? in
                guard let fields = value as? [String: Any], let id = fields["operationId"] as? String else {
                    return nil
                }
                return Operation(method: method, path: path, id: id, fields: fields)
            }
        }.sorted { $0.id < $1.id }
    }

    @Test func theDocumentHasItsOperations() {
        #expect(Self.operations.count > 100)
    }

    /// A flow mapping's unquoted comma (`{ description: The day, or the week's first day. }`) ends the text
    /// early and makes a key of the rest, with no value; the reference then shows "The day" (review, 5.3).
    @Test func noTextIsCutShortIntoAKeyWithoutAValue() {
        var cut: [String] = []
        func walk(_ node: Any, _ path: String) {
            if let mapping = node as? [String: Any] {
                for (key, value) in mapping {
                    if value is NSNull { cut.append("\(path)/\(key)") }
                    walk(value, "\(path)/\(key)")
                }
            } else if let sequence = node as? [Any] {
                for (index, value) in sequence.enumerated() { walk(value, "\(path)/\(index)") }
            }
        }
        walk(Self.document, "")
        #expect(cut.isEmpty, "keys without a value: \(cut.sorted())")
    }

    /// `IdempotencyMiddleware` honours `Idempotency-Key` on every signed-in POST; a generated client can send
    /// it only where the document declares it (review, D4).
    @Test func everySignedInPostDeclaresTheIdempotencyKey() {
        let undeclared = Self.operations.filter {
            $0.method == "post" && !$0.isPublic
                && !$0.parameterReferences.contains("#/components/parameters/IdempotencyKey")
        }
        #expect(undeclared.isEmpty, "POSTs without Idempotency-Key: \(undeclared.map(\.id))")
    }

    /// Before onboarding, every operation but a few answers 403 `onboarding-required` (review, D1).
    @Test func everyOperationOnboardingGuardsDeclaresItsRefusal() {
        let undeclared = Self.operations.filter {
            !$0.isPublic && !OnboardingAccess.allowedBefore.contains($0.id) && $0.responses["403"] == nil
        }
        #expect(undeclared.isEmpty, "operations without their 403: \(undeclared.map(\.id))")
    }

    /// Every operation is counted against a budget and admitted by a node that may be full: each declares
    /// the 429 and the 503 it may answer (review, D5), so a generated client has a case for both.
    @Test func everyOperationDeclaresItsLimits() {
        let undeclared = Self.operations.filter { $0.responses["429"] == nil || $0.responses["503"] == nil }
        #expect(undeclared.isEmpty, "operations without 429 or 503: \(undeclared.map(\.id))")
    }

    /// A number a client chooses in a query has its bounds in the schema, where generated clients and the
    /// reference show them, not only in prose (review, 5.2 and I24).
    @Test func everyNumberInAQueryDeclaresItsBounds() {
        var unbounded: [String] = []
        for operation in Self.operations {
            for (name, parameter) in operation.query {
                let schema = parameter["schema"] as? [String: Any] ?? [:]
                guard ["integer", "number"].contains(schema["type"] as? String) else { continue }
                if schema["minimum"] == nil || schema["maximum"] == nil { unbounded.append("\(operation.id) \(name)") }
            }
        }
        #expect(unbounded.isEmpty, "query numbers without minimum and maximum: \(unbounded)")
    }

    /// One way to page (review, I22–I26): an operation that takes a `cursor` takes the same one (opaque, at
    /// most 512 characters) and a bounded `limit` with a default, answers `items` and `nextCursor`, and declares
    /// the 422 of a cursor it did not make.
    @Test func everyPagedListPagesTheSameWay() {
        let document = Self.document
        let paged = Self.operations.filter { $0.query["cursor"] != nil }
        #expect(paged.count >= 13)
        for operation in paged {
            let cursor = operation.query["cursor"]?["schema"] as? [String: Any] ?? [:]
            #expect(cursor["type"] as? String == "string" && cursor["maxLength"] as? Int == 512, "\(operation.id)")
            let limit = operation.query["limit"]?["schema"] as? [String: Any] ?? [:]
            #expect(
                limit["minimum"] as? Int == 1 && limit["maximum"] is Int && limit["default"] is Int,
                "\(operation.id): limit \(limit)"
            )
            let answer = operation.answerProperties(in: document)
            // A ratchet: the boards still call their items `rows` (the hot reads write them by hand).
            let key =
                ["getFitCircleLeaderboard", "getCompetitionLeaderboard"].contains(operation.id) ? "rows" : "items"
            #expect(
                (answer[key] as? [String: Any])?["type"] as? String == "array" && answer["nextCursor"] != nil,
                "\(operation.id) answers \(answer.keys.sorted())"
            )
            #expect(operation.responses["422"] != nil, "\(operation.id) does not declare its 422")
        }
    }

    /// Every list that can grow is paged (review, I23): a list in a read's answer is the `items` of a paged
    /// operation, or says what bounds it, with `maxItems` where a number does (the server's own caps) or
    /// `x-bounded-by` where a catalog or the caller's own few things do. A list added without either fails
    /// here with its operation and name.
    @Test func everyListThatCanGrowIsPaged() {
        let document = Self.document
        var unbounded: [String] = []
        for operation in Self.operations where operation.method == "get" {
            let paged = operation.query["cursor"] != nil
            for (name, value) in operation.answerProperties(in: document) {
                guard let list = Self.resolved(value, in: document), list["type"] as? String == "array" else {
                    continue
                }
                if paged && ["items", "rows"].contains(name) { continue }
                if list["maxItems"] is Int || list["x-bounded-by"] is String { continue }
                unbounded.append("\(operation.id).\(name)")
            }
        }
        #expect(unbounded.isEmpty, "lists neither paged nor bounded: \(unbounded.sorted())")
    }

    /// Every JSON body, asked or answered, shows an example (review, 5.1): on its media type or on the named
    /// schema it refers to, so the reference and a generated client's documentation show one.
    /// `scripts/record-examples.sh` records real ones; `scripts/lint-openapi.sh` checks each fits its schema.
    @Test func everyBodyHasAnExample() {
        let document = Self.document
        let components = document["components"] as? [String: Any] ?? [:]
        func followed(_ node: Any?, in kind: String) -> [String: Any] {
            let node = node as? [String: Any] ?? [:]
            guard let reference = node["$ref"] as? String, let name = reference.split(separator: "/").last else {
                return node
            }
            return (components[kind] as? [String: Any])?[String(name)] as? [String: Any] ?? [:]
        }
        func shows(_ media: [String: Any]) -> Bool {
            if media["example"] != nil || media["examples"] != nil { return true }
            let schema = Self.resolved(media["schema"] ?? [:], in: document) ?? [:]
            return schema["example"] != nil || schema["examples"] != nil
        }
        var bare: [String] = []
        for operation in Self.operations {
            var bodies: [(String, Any?)] = [
                ("request", followed(operation.fields["requestBody"], in: "requestBodies")["content"])
            ]
            for (status, answer) in operation.responses {
                bodies.append((status, followed(answer, in: "responses")["content"]))
            }
            for (place, content) in bodies {
                for (kind, media) in content as? [String: Any] ?? [:]
                where ["application/json", "application/problem+json"].contains(kind) {
                    if !shows(media as? [String: Any] ?? [:]) { bare.append("\(operation.id) \(place) \(kind)") }
                }
            }
        }
        #expect(bare.isEmpty, "bodies without an example: \(bare.sorted())")
    }

    /// A bound a description states in numbers is a schema keyword too (review, 5.2), where validators,
    /// generated clients and the fuzzer read it: a range (`1–500`, `1 to 64`) or `at most`, `at least`,
    /// `more than` on a number; a length in characters or bytes on a text; `at most` or `up to` on a list.
    @Test func everyBoundInWordsIsAKeyword() {
        let range = #/(?:^|[^\d:.,])\d[\d,]*\s*(–| to )\s*\d[\d,]*/#
        let above = #/(?i)(at least|more than|above) \d/#
        let below = #/(?i)at most \d/#
        let length = #/(?i)(at most|up to|\d) *[\d,]* *(characters|bytes|KB)/#
        let count = #/(?i)(at most|up to) (\d|one|two|three|four|five|ten)/#
        var prose: [String] = []
        func walk(_ node: Any, _ path: String) {
            if let schema = node as? [String: Any] {
                if let text = schema["description"] as? String, let type = schema["type"] as? String {
                    let has = { (keys: [String]) in keys.contains { schema[$0] != nil } }
                    var missing = false
                    switch type {
                    case "integer", "number":
                        if text.contains(range) {
                            missing = !has(["minimum", "exclusiveMinimum"]) || !has(["maximum"])
                        }
                        if text.contains(above) { missing = missing || !has(["minimum", "exclusiveMinimum"]) }
                        if text.contains(below) { missing = missing || !has(["maximum"]) }
                    case "string" where schema["format"] == nil:
                        missing = text.contains(length) && !has(["maxLength"])
                    case "array":
                        missing = text.contains(count) && !has(["maxItems"])
                    default: break
                    }
                    if missing { prose.append(path) }
                }
                for (key, value) in schema { walk(value, "\(path)/\(key)") }
            } else if let list = node as? [Any] {
                for (index, value) in list.enumerated() { walk(value, "\(path)/\(index)") }
            }
        }
        walk(Self.document, "")
        #expect(prose.isEmpty, "bounds only in words: \(prose.sorted())")
    }

    /// The document says which operations a service key reaches, as `ServiceScope` decides (issue 46): each
    /// names its scope in `x-service-scope` and lists the `serviceKey` scheme, and no other does.
    @Test func everyServiceScopeIsWhatTheDocumentSays() {
        var said: [String: String] = [:]
        for operation in Self.operations {
            let schemes = (operation.fields["security"] as? [[String: Any]] ?? []).flatMap(\.keys)
            let scope = operation.fields["x-service-scope"] as? String
            #expect((scope != nil) == schemes.contains("serviceKey"), "\(operation.id): x-service-scope and its scheme")
            if let scope { said[operation.id] = scope }
        }
        let decided = Dictionary(
            ServiceScope.allCases.flatMap { scope in scope.operations.map { ($0, scope.rawValue) } },
            uniquingKeysWith: { first, _ in first }
        )
        #expect(said == decided)
    }

    /// A deprecated operation says since when and what replaces it (the document's versions paragraph): the
    /// server's `Deprecation` header is made from the day, and a client reads the replacement in the summary.
    @Test func everyDeprecatedOperationSaysSinceWhenAndWhatReplacesIt() {
        let deprecated = Self.operations.filter { $0.fields["deprecated"] as? Bool == true }
        #expect(!deprecated.isEmpty)
        for operation in deprecated {
            let day = operation.fields["x-deprecated-on"] as? String ?? ""
            #expect(LocalDate(iso: day) != nil, "\(operation.id): x-deprecated-on '\(day)'")
            let summary = operation.fields["summary"] as? String ?? ""
            #expect(summary.contains("use "), "\(operation.id) does not name its replacement: \(summary)")
        }
    }

    /// Every problem type a business rule answers is in the document's catalogue, with a title, so a client
    /// can switch on each (issue 46).
    @Test func everyRefusalHasItsProblemTypeInTheCatalogue() {
        let catalogue = (Self.document["info"] as? [String: Any])?["description"] as? String ?? ""
        for kind in Refusal.Kind.allCases {
            #expect(catalogue.contains("| `/problems/\(kind.rawValue)` |"), "\(kind.rawValue) is not in the catalogue")
            #expect(ProblemDocument.titles[kind] != nil, "\(kind.rawValue) has no title")
        }
    }
}
