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
