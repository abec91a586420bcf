public import Foundation

/// An app backend's subscription to FitCircle's domain events (issue 24): where to `POST` them, which
/// events, and the secret each delivery is signed with.
public struct WebhookEndpoint: Equatable, Sendable {
    public typealias ID = Identifier<WebhookEndpoint>

    public var id: ID
    public var url: String
    /// The `ServerEvent` names it receives.
    public var events: [String]
    public var description: String
    /// The HMAC-SHA256 key of its deliveries' signatures; told once, when the endpoint is registered.
    public var secret: String
    public var createdAt: Date

    public init(id: ID, url: String, events: [String], description: String, secret: String, createdAt: Date) {
        self.id = id
        self.url = url
        self.events = events
        self.description = description
        self.secret = secret
        self.createdAt = createdAt
    }

    public static let maximumEndpoints = 50

    /// What an endpoint may subscribe to: every event the server records itself — the domain's (streak
    /// extended, frozen, broken, milestone; goal completed; level up; badge unlocked; rank changed; challenge
    /// finished and won) and the rest (app opened, notification delivered…).
    public static var subscribable: Set<String> { Set(ServerEvent.allCases.map(\.rawValue)) }

    /// Checks a registration, naming each bad field. Plain `http` is allowed; anything but an absolute
    /// http(s) URL is not, and neither is a host on this machine or a private network (`PrivateAddress`)
    /// unless `allowPrivateTargets` (a backend on the same host or network, when the operator says so).
    public static func validate(url: String, events: [String], description: String, allowPrivateTargets: Bool = false)
        throws
    {
        var violations: [FieldViolation] = []
        if url.utf8.count > 2_000 {
            violations.append(.init(field: "url", reason: "must be at most 2000 bytes"))
        } else if let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(),
            ["http", "https"].contains(scheme),
            let host = parsed.host, !host.isEmpty, parsed.user == nil, parsed.password == nil
        {
            if !allowPrivateTargets && PrivateAddress.isPrivate(host: host) {
                violations.append(
                    .init(
                        field: "url",
                        reason:
                            "must not point at this machine or a private network (the server's webhooks.allowPrivateTargets allows it)"
                    )
                )
            }
        } else {
            violations.append(.init(field: "url", reason: "must be an absolute http or https URL without credentials"))
        }
        if events.isEmpty || events.count > ServerEvent.allCases.count {
            violations.append(.init(field: "events", reason: "must name 1 to \(ServerEvent.allCases.count) events"))
        }
        for (index, event) in events.enumerated() where !Self.subscribable.contains(event) {
            violations.append(
                .init(
                    field: "events[\(index)]",
                    reason: "is not an event the server records; see ServerEvent in the API reference"
                )
            )
        }
        if Set(events).count != events.count {
            violations.append(.init(field: "events", reason: "names an event twice"))
        }
        if description.count > 500 {
            violations.append(.init(field: "description", reason: "must be at most 500 characters"))
        }
        guard violations.isEmpty else { throw ValidationError(violations) }
    }
}

/// One event sent (or to be sent) to one endpoint: the delivery log operators read and replay from.
public struct WebhookDelivery: Equatable, Sendable {
    public typealias ID = Identifier<WebhookDelivery>

    public enum Status: String, Equatable, Sendable, Codable, CaseIterable {
        case pending, delivered, failed
    }

    public var id: ID
    public var endpoint: WebhookEndpoint.ID
    public var event: String
    public var user: User.ID
    /// The JSON body, as signed and sent.
    public var payload: String
    public var status: Status
    public var attempts: Int
    /// The last answer's HTTP status, when there was one.
    public var lastStatus: Int?
    public var lastError: String?
    public var createdAt: Date
    public var deliveredAt: Date?

    public init(
        id: ID,
        endpoint: WebhookEndpoint.ID,
        event: String,
        user: User.ID,
        payload: String,
        status: Status = .pending,
        attempts: Int = 0,
        lastStatus: Int? = nil,
        lastError: String? = nil,
        createdAt: Date,
        deliveredAt: Date? = nil
    ) {
        self.id = id
        self.endpoint = endpoint
        self.event = event
        self.user = user
        self.payload = payload
        self.status = status
        self.attempts = attempts
        self.lastStatus = lastStatus
        self.lastError = lastError
        self.createdAt = createdAt
        self.deliveredAt = deliveredAt
    }
}

/// The body of a delivery: the event as the server recorded it.
public struct WebhookPayload: Equatable, Sendable, Codable {
    /// The delivery's id: a receiver that sees it twice (a retry after a lost answer) drops the second.
    public var id: String
    public var type: String
    public var occurredAt: Date
    public var userId: String
    /// The user's local day when it happened.
    public var localDate: String
    public var data: [String: EventValue]

    public init(id: String, event: AnalyticsEvent) {
        self.id = id
        self.type = event.name
        self.occurredAt = event.occurredAt
        self.userId = event.userID.rawValue
        self.localDate = event.localDate.iso
        self.data = event.properties
    }
}
