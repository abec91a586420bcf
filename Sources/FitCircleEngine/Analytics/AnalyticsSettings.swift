public import Configuration
public import FitCircleCore

/// Where analytics events are forwarded (`analytics.forward.*`); none: they stay on this server.
public struct AnalyticsSettings: Sendable {
    /// An HTTP API taking Segment's `/v1/batch` format.
    public var forwardURL: String?
    /// Sent as HTTP Basic's user name.
    public var writeKey: String?

    public init(forwardURL: String? = nil, writeKey: String? = nil) {
        self.forwardURL = forwardURL
        self.writeKey = writeKey
    }

    /// - `analytics.forward.url` (an HTTP API taking Segment's `/v1/batch` format; none: events stay here),
    ///   `analytics.forward.writeKey` (sent as HTTP Basic's user name)
    public init(reader: ConfigReader) throws {
        let url = reader.string(forKey: "analytics.forward.url")
        if let url, !(url.hasPrefix("https://") || url.hasPrefix("http://")) {
            throw InvalidSetting(key: "analytics.forward.url", expected: "an http or https URL", found: url)
        }
        self.init(forwardURL: url, writeKey: reader.string(forKey: "analytics.forward.writeKey", isSecret: true))
    }
}
