public import Configuration
import FitCircleCore
public import FitCircleEngine
import Foundation

/// How a node's HTTP side listens and what it takes.
public struct NodeSettings: Sendable {
    public var host: String
    public var port: Int
    public var maxBodyBytes: Int
    public var limits: RequestLimits
    public var connectionDeadlines: ConnectionDeadlines
    /// How browsers reach the server: the web session's cookies, the web sign-in flows.
    public var web: WebSettings
    /// What `/metrics` asks of a scraper (`metrics.token`): without one, only this machine may read it.
    public var metricsToken: String?

    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        maxBodyBytes: Int = 6 * 1024 * 1024,
        limits: RequestLimits = .default,
        connectionDeadlines: ConnectionDeadlines = ConnectionDeadlines(),
        web: WebSettings = WebSettings(),
        metricsToken: String? = nil
    ) {
        self.web = web
        self.metricsToken = metricsToken
        self.host = host
        self.port = port
        self.maxBodyBytes = maxBodyBytes
        self.limits = limits
        self.connectionDeadlines = connectionDeadlines
    }
}

extension NodeSettings {
    /// - `host` (default `127.0.0.1`), `port` (default `8080`)
    /// - `http.maxBodyBytes` (default 6 MiB), `http.idleSeconds` (60), `http.requestReadSeconds` (30),
    ///   `http.anonymousRequestReadSeconds` (5: a request without credentials has this long for its body)
    /// - `limits.*` (`RequestLimits.init(reader:)`)
    /// - `server.publicUrl` (default `http://<host>:<port>`): this server as browsers and emails' links reach it
    /// - `server.corsOrigins` (default none): other origins whose web apps may call the API, comma-separated
    ///   (`https://app.example.com`), or `*` for any (`CrossOriginPolicy`)
    /// - `metrics.token` (secret, ≥ 16 bytes; none: `/metrics` answers only this machine, loopback and not
    ///   forwarded by a proxy)
    ///
    /// The web sign-in flows' clients are `auth`'s.
    public init(reader: ConfigReader, auth: AuthConfiguration) throws {
        let host = reader.string(forKey: "host", default: "127.0.0.1")
        let port = reader.int(forKey: "port", default: 8080)
        let idleSeconds = reader.int(forKey: "http.idleSeconds", default: 60)
        let requestReadSeconds = reader.int(forKey: "http.requestReadSeconds", default: 30)
        let anonymousReadSeconds = reader.int(
            forKey: "http.anonymousRequestReadSeconds",
            default: min(5, requestReadSeconds)
        )
        for (key, value) in [
            ("http.idleSeconds", idleSeconds), ("http.requestReadSeconds", requestReadSeconds),
            ("http.anonymousRequestReadSeconds", anonymousReadSeconds),
        ] where !(1...3_600).contains(value) {
            throw InvalidSetting(key: key, expected: "a whole number of seconds from 1 to 3600", found: "\(value)")
        }
        let metricsToken = reader.string(forKey: "metrics.token", isSecret: true)
        if let token = metricsToken, token.utf8.count < 16 {
            throw InvalidSetting(
                key: "metrics.token",
                expected: "at least 16 bytes",
                found: "\(token.utf8.count) bytes"
            )
        }
        let corsOrigins = (reader.string(forKey: "server.corsOrigins") ?? "").split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty }
        for origin in corsOrigins where !CrossOriginPolicy.isOrigin(origin) {
            throw InvalidSetting(
                key: "server.corsOrigins",
                expected: "origins such as https://app.example.com (a scheme, a host, a port; no path), or *",
                found: origin
            )
        }
        self.init(
            host: host,
            port: port,
            maxBodyBytes: reader.int(forKey: "http.maxBodyBytes", default: 6 * 1024 * 1024),
            limits: try RequestLimits(reader: reader),
            connectionDeadlines: ConnectionDeadlines(
                idle: .seconds(idleSeconds),
                requestRead: .seconds(requestReadSeconds),
                anonymousRequestRead: .seconds(anonymousReadSeconds)
            ),
            web: WebSettings(
                publicURL: reader.string(forKey: "server.publicUrl", default: "http://\(host):\(port)"),
                googleClientID: auth.googleWebClientID,
                appleClientID: auth.appleWebClientID,
                corsOrigins: Set(corsOrigins)
            ),
            metricsToken: metricsToken
        )
    }

    /// Whether `host` only listens on this machine (127.0.0.0/8, ::1, localhost).
    public var listensOnLoopbackOnly: Bool {
        self.host == "localhost" || self.host == "::1" || self.host == "[::1]"
            || self.host.hasPrefix("127.") && self.host.split(separator: ".").count == 4
    }
}
