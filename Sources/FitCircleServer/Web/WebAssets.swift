import Foundation

/// The web app's files (`Sources/FitCircleServer/Web/Assets`, a resource of the module), read once at start-up
/// and served from memory: a request can only name a file that is in this table, never a path on disk.
struct WebAssets: Sendable {
    struct File: Sendable {
        var bytes: [UInt8]
        var contentType: String
        /// A page (`*.html`): served at its route with the page headers, never under `/assets/`.
        var isPage: Bool
        /// The `ETag` of `bytes` (`EntityTag`), computed once when the files are loaded.
        var tag: String
    }

    private let files: [String: File]

    init(files: [String: File]) {
        self.files = files
    }

    func file(_ path: String) -> File? { self.files[path] }

    struct Missing: Error, CustomStringConvertible {
        var description: String { "The web app's files are missing from the FitCircleServer module's resources." }
    }

    /// Every file under the module's `Assets` folder, by its path relative to it.
    static func load() throws -> WebAssets {
        guard let root = Bundle.module.url(forResource: "Assets", withExtension: nil) else { throw Missing() }
        let base = root.standardizedFileURL.path + "/"
        var files: [String: File] = [:]
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = enumerator?.nextObject() as? URL {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            let path = String(url.standardizedFileURL.path.dropFirst(base.count))
            let type = Self.contentTypes[url.pathExtension.lowercased()] ?? "application/octet-stream"
            let bytes = Array(try Data(contentsOf: url))
            files[path] = File(
                bytes: bytes,
                contentType: type,
                isPage: url.pathExtension == "html",
                tag: EntityTag.of(bytes)
            )
        }
        return WebAssets(files: files)
    }

    private static let contentTypes = [
        "html": "text/html; charset=utf-8",
        "css": "text/css; charset=utf-8",
        "js": "text/javascript; charset=utf-8",
        "svg": "image/svg+xml",
        "png": "image/png",
        "ico": "image/x-icon",
        "json": "application/json",
        "txt": "text/plain; charset=utf-8",
    ]
}
