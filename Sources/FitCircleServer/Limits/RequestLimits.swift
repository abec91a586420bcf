public import FitCircleCore
import Foundation

/// How much one address, one user and this node take before being told to slow down (429) or that the
/// node is full (503). Settings (`limits.*`), with defaults for a public server; the tests use generous ones.
public struct RequestLimits: Equatable, Sendable {
    /// Requests per minute from one address, whatever they are (the health routes aside).
    public var perAddress: Int
    /// Requests per minute of one signed-in user.
    public var perUser: Int
    /// Sign-ins (Google, Apple, dev) per minute from one address.
    public var signIns: Int
    /// Token refreshes per minute from one address.
    public var refreshes: Int
    /// Joins of circles and challenges, by code or invitation, per minute of one user (codes are not to be
    /// guessed).
    public var joins: Int
    /// Invitations per minute of one user (besides the daily caps of `InvitationLimits`).
    public var invitations: Int
    /// Friend requests per minute of one user (besides the 100 that may wait at once, `FriendLimits`).
    public var friendRequests: Int
    /// People searches per minute of one user (spec 004, R15.7).
    public var searches: Int
    /// The most requests this node works on at once; past its limit, new ones get 503 with `Retry-After` at
    /// once. A request takes its place once its body has arrived: one whose body trickles in holds none.
    /// The limit itself adapts between `minInFlight` and this to the latency the node measures
    /// (`ConcurrencyLimit`): it grows while latency stays near what it is without queueing and shrinks when
    /// requests start to wait, so what is admitted is served about as fast as usual.
    public var maxInFlight: Int
    /// The least the adaptive limit goes down to; equal to `maxInFlight`, the limit is fixed there.
    public var minInFlight: Int
    /// Request bodies one address may be sending to this node at once (429 past it): however slowly it
    /// sends, no address holds more connections than this. A request counts only while its body arrives
    /// (a GET or an event stream not at all), so many people behind one address are not held back.
    /// Default: a sixteenth of `maxInFlight`, at least 8. Behind a proxy, set `trustForwardedFor`, or every
    /// client shares the proxy's address.
    public var perAddressBodies: Int
    /// Event streams one user may have open on this node at once (circles and the inbox; 429 past it).
    public var streamsPerUser: Int
    /// Event streams open on this node in all (503 past it).
    public var streamsPerNode: Int
    /// Behind a load balancer or proxy every connection comes from it: then the client is the last address
    /// of `X-Forwarded-For`, the one the nearest proxy appended. Only when such a proxy is in front (anyone
    /// can send the header).
    public var trustForwardedFor: Bool

    public init(
        perAddress: Int = 1_200,
        perUser: Int = 600,
        signIns: Int = 10,
        refreshes: Int = 30,
        joins: Int = 10,
        invitations: Int = 30,
        friendRequests: Int = 30,
        searches: Int = 30,
        maxInFlight: Int = 512,
        minInFlight: Int = 8,
        perAddressBodies: Int? = nil,
        streamsPerUser: Int = 8,
        streamsPerNode: Int = 2_000,
        trustForwardedFor: Bool = false
    ) {
        self.perAddress = perAddress
        self.perUser = perUser
        self.signIns = signIns
        self.refreshes = refreshes
        self.joins = joins
        self.invitations = invitations
        self.friendRequests = friendRequests
        self.searches = searches
        self.maxInFlight = maxInFlight
        self.minInFlight = min(minInFlight, maxInFlight)
        self.perAddressBodies = perAddressBodies ?? Self.defaultPerAddressBodies(maxInFlight: maxInFlight)
        self.streamsPerUser = streamsPerUser
        self.streamsPerNode = streamsPerNode
        self.trustForwardedFor = trustForwardedFor
    }

    /// The address the per-address limits count: the peer, or the one the nearest trusted proxy forwarded.
    func clientAddress(peer: String?, forwardedFor: String?) -> String {
        if self.trustForwardedFor,
            let forwarded = forwardedFor?.split(separator: ",").last?.trimmingCharacters(in: .whitespaces),
            !forwarded.isEmpty, forwarded.utf8.count <= 64
        {
            return forwarded
        }
        return peer ?? "unknown"
    }

    public static let `default` = RequestLimits()

    public static func defaultPerAddressBodies(maxInFlight: Int) -> Int { max(8, maxInFlight / 16) }

    /// Limits nothing a test or a benchmark from one address does would reach.
    public static let generous = RequestLimits(
        perAddress: 1 << 30,
        perUser: 1 << 30,
        signIns: 1 << 30,
        refreshes: 1 << 30,
        joins: 1 << 30,
        invitations: 1 << 30,
        friendRequests: 1 << 30,
        searches: 1 << 30,
        maxInFlight: 1 << 20,
        minInFlight: 1 << 20,
        perAddressBodies: 1 << 20,
        streamsPerUser: 1 << 20,
        streamsPerNode: 1 << 20
    )

    /// The limit of an operation beyond the per-user one, if it has its own.
    func operationLimit(_ operationID: String) -> RateLimit? {
        switch operationID {
        case "signInWithGoogle", "signInWithApple", "signInForDevelopment":
            RateLimit(name: "sign-in", quota: self.signIns, window: 60)
        case "refreshTokens": RateLimit(name: "refresh", quota: self.refreshes, window: 60)
        // Joining by code, a circle or a challenge: codes are not to be guessed.
        case "joinFitCircle", "joinCompetition": RateLimit(name: "join", quota: self.joins, window: 60)
        case "inviteToFitCircle": RateLimit(name: "invite", quota: self.invitations, window: 60)
        case "requestFriend": RateLimit(name: "friend-request", quota: self.friendRequests, window: 60)
        case "searchUsers": RateLimit(name: "search", quota: self.searches, window: 60)
        default: nil
        }
    }

    var addressLimit: RateLimit { RateLimit(name: "address", quota: self.perAddress, window: 60) }
    var userLimit: RateLimit { RateLimit(name: "user", quota: self.perUser, window: 60) }
}
