import Foundation

/// Where the data lives, parsed from `--database-url`: `sqlite:///absolute/path.sqlite` or `postgres://…`.
public enum DatabaseLocation: Equatable, Sendable, CustomStringConvertible {
    case sqlite(path: String)
    case postgres(PostgresLocation)

    public struct PostgresLocation: Equatable, Sendable {
        public var host: String
        public var port: Int
        public var username: String
        public var password: String?
        public var database: String
        public var tls: TLSMode
        /// The schema FitCircle's tables live in (`?schema=` in the URL); PostgreSQL's default search path when `nil`.
        public var schema: String?

        public init(
            host: String,
            port: Int = 5432,
            username: String,
            password: String? = nil,
            database: String,
            tls: TLSMode = .prefer,
            schema: String? = nil
        ) {
            self.host = host
            self.port = port
            self.username = username
            self.password = password
            self.database = database
            self.tls = tls
            self.schema = schema
        }

        /// `sslmode` as libpq spells it; `prefer` unless the URL says otherwise.
        public enum TLSMode: String, Equatable, Sendable {
            case disable, prefer, require
        }
    }

    /// An unusable database URL, with what was expected.
    public struct InvalidURL: Error, CustomStringConvertible {
        public var url: String
        public var reason: String
        public var description: String { "Invalid database URL '\(self.url)': \(self.reason)" }
    }

    public init(url: String) throws {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased() else {
            throw InvalidURL(
                url: url,
                reason: "expected sqlite:///absolute/path.sqlite or postgres://user@host:port/database"
            )
        }
        switch scheme {
        case "sqlite":
            let path = components.percentEncodedPath.removingPercentEncoding ?? components.path
            guard path.hasPrefix("/"), components.host?.isEmpty ?? true else {
                throw InvalidURL(
                    url: url,
                    reason: "an SQLite URL needs an absolute path: sqlite:///absolute/path.sqlite"
                )
            }
            self = .sqlite(path: path)
        case "postgres", "postgresql":
            guard let host = components.host, !host.isEmpty else {
                throw InvalidURL(url: url, reason: "a PostgreSQL URL needs a host")
            }
            let database = String(components.path.drop(while: { $0 == "/" }))
            let mode = components.queryItems?.first(where: { $0.name == "sslmode" })?.value ?? "prefer"
            guard let tls = PostgresLocation.TLSMode(rawValue: mode) else {
                throw InvalidURL(url: url, reason: "sslmode must be disable, prefer or require")
            }
            self = .postgres(
                PostgresLocation(
                    host: host,
                    port: components.port ?? 5432,
                    username: components.user ?? "postgres",
                    password: components.password,
                    database: database.isEmpty ? (components.user ?? "postgres") : database,
                    tls: tls,
                    schema: components.queryItems?.first(where: { $0.name == "schema" })?.value
                )
            )
        default:
            throw InvalidURL(url: url, reason: "unknown scheme '\(scheme)'; use sqlite or postgres")
        }
    }

    /// The location without its password, for logs.
    public var description: String {
        switch self {
        case .sqlite(let path): "sqlite://\(path)"
        case .postgres(let location):
            "postgres://\(location.username)@\(location.host):\(location.port)/\(location.database)"
        }
    }
}
