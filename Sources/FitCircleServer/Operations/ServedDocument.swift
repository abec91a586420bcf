import FitCircleAPI

/// The OpenAPI document as this process serves and reads it: its text, the route table read from it and the
/// `/docs` page rendered from it. The document is a resource of the build, the same for every router, so it
/// is parsed once per process: parsing its 280 KB of YAML took half the CPU of building a router, and the
/// test suite builds hundreds.
struct ServedDocument: Sendable {
    let yaml: String
    let routes: RouteTable
    let docsPage: String

    /// The document of this build, or why it cannot be read.
    static func load() throws -> ServedDocument {
        try self.parsed.get()
    }

    private static let parsed = Result {
        let yaml = try OpenAPIDocument.yaml()
        return ServedDocument(
            yaml: yaml,
            routes: try RouteTable(openAPIDocument: yaml),
            docsPage: try DocsPage.render(openAPIDocument: yaml)
        )
    }
}
