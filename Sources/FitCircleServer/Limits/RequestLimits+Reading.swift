public import Configuration
public import FitCircleCore

extension RequestLimits {
    /// - `limits.perAddress` (1200 a minute), `limits.perUser` (600), `limits.signIns` (10 per address),
    ///   `limits.refreshes` (30 per address), `limits.joins` (10 per user), `limits.invitations` (30 per
    ///   user), `limits.friendRequests` (30 per user), `limits.searches` (30 per user), `limits.maxInFlight`
    ///   (512: the most requests at once on this node, once their bodies have arrived), `limits.minInFlight` (8:
    ///   the least the adaptive limit between them goes down to; equal, the limit is fixed), `limits.perAddressBodies`
    ///   (request bodies one address may be sending at once; default a sixteenth of `maxInFlight`, at least
    ///   8), `limits.streamsPerUser` (8 open event streams), `limits.streamsPerNode` (2000),
    ///   `limits.trustForwardedFor` (false)
    public init(reader: ConfigReader) throws {
        let defaults = RequestLimits.default
        func count(_ name: String, _ fallback: Int) throws -> Int {
            let value = reader.int(forKey: ConfigKey("limits.\(name)"), default: fallback)
            guard value >= 1 else {
                throw InvalidSetting(key: "limits.\(name)", expected: "a whole number of at least 1", found: "\(value)")
            }
            return value
        }
        let maxInFlight = try count("maxInFlight", defaults.maxInFlight)
        self.init(
            perAddress: try count("perAddress", defaults.perAddress),
            perUser: try count("perUser", defaults.perUser),
            signIns: try count("signIns", defaults.signIns),
            refreshes: try count("refreshes", defaults.refreshes),
            joins: try count("joins", defaults.joins),
            invitations: try count("invitations", defaults.invitations),
            friendRequests: try count("friendRequests", defaults.friendRequests),
            searches: try count("searches", defaults.searches),
            maxInFlight: maxInFlight,
            minInFlight: try count("minInFlight", defaults.minInFlight),
            perAddressBodies: try count("perAddressBodies", Self.defaultPerAddressBodies(maxInFlight: maxInFlight)),
            streamsPerUser: try count("streamsPerUser", defaults.streamsPerUser),
            streamsPerNode: try count("streamsPerNode", defaults.streamsPerNode),
            trustForwardedFor: reader.bool(forKey: "limits.trustForwardedFor", default: false)
        )
    }
}
