public import Foundation

/// The OpenAPI document this module's code is generated from, for serving it at `/openapi.yaml`.
public enum OpenAPIDocument {
    /// The raw YAML text of `openapi.yaml`.
    public static func yaml() throws -> String {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml") else {
            throw CocoaError(.fileNoSuchFile)
        }
        return try String(contentsOf: url, encoding: .utf8)
    }
}
