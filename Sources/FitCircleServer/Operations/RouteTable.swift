import Foundation
import Yams

/// The operations of the OpenAPI document, read from the document itself: which paths exist with which
/// methods (for 405 answers), which operations need no token (`security: []`), which answer a conditional
/// read with a `304` and which answer a live stream (`text/event-stream`).
struct RouteTable: Sendable {
    struct Operation: Sendable, Equatable {
        var method: String
        var path: String
        var operationID: String
        var isPublic: Bool
        var isConditional: Bool
        var isStream: Bool
        /// When a deprecated operation was deprecated (`x-deprecated-on`, a day); nil for a current one.
        var deprecatedOn: String?
    }

    let operations: [Operation]
    /// What each operation's JSON body and query must look like (`InputCheckMiddleware`).
    let inputs: InputSchemas

    init(openAPIDocument yaml: String) throws {
        let document = try Yams.load(yaml: yaml) as? [String: Any] ?? [:]
        self.inputs = InputSchemas(document: document)
        let paths = document["paths"] as? [String: Any] ?? [:]
        var operations: [Operation] = []
        for (path, item) in paths {
            for (method, value) in item as? [String: Any] ?? [:] {
                guard let operation = value as? [String: Any], let id = operation["operationId"] as? String else {
                    continue
                }
                let security = operation["security"] as? [Any]
                let responses = operation["responses"] as? [String: Any] ?? [:]
                let ok = (responses["200"] as? [String: Any])?["content"] as? [String: Any] ?? [:]
                operations.append(
                    Operation(
                        method: method.uppercased(),
                        path: path,
                        operationID: id,
                        isPublic: security?.isEmpty == true,
                        isConditional: responses["304"] != nil,
                        isStream: ok["text/event-stream"] != nil,
                        deprecatedOn: operation["deprecated"] as? Bool == true
                            ? (operation["x-deprecated-on"] as? String ?? "") : nil
                    )
                )
            }
        }
        self.operations = operations.sorted { ($0.path, $0.method) < ($1.path, $1.method) }
    }

    /// The deprecated operations, by id, with the day each was deprecated.
    var deprecatedOperations: [String: String] {
        Dictionary(
            self.operations.compactMap { operation in operation.deprecatedOn.map { (operation.operationID, $0) } },
            uniquingKeysWith: { first, _ in first }
        )
    }

    /// The operations anyone may call without an access token.
    var publicOperationIDs: Set<String> {
        Set(self.operations.filter(\.isPublic).map(\.operationID))
    }

    /// The operations whose answers carry an `ETag` and may be a `304` (`ConditionalGetMiddleware`).
    var conditionalOperationIDs: Set<String> {
        Set(self.operations.filter(\.isConditional).map(\.operationID))
    }

    /// The paths (templates, `/api/fitcircles/{id}/stream`) whose answer is a live stream (`StreamTaskMiddleware`).
    var streamPaths: Set<String> {
        Set(self.operations.filter(\.isStream).map(\.path))
    }

    /// The methods allowed on a concrete path (`/api/user/profile`), or `nil` when no template matches it.
    func methods(forPath path: String) -> [String]? {
        let matching = self.operations.filter { Self.matches(template: $0.path, path: path) }
        return matching.isEmpty ? nil : matching.map(\.method).sorted()
    }

    private static func matches(template: String, path: String) -> Bool {
        let templateParts = template.split(separator: "/")
        let pathParts = path.split(separator: "/")
        guard templateParts.count == pathParts.count else { return false }
        return zip(templateParts, pathParts).allSatisfy { template, part in
            template.hasPrefix("{") || template == part
        }
    }
}
