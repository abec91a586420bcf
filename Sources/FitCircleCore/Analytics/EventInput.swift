public import Foundation

/// An event as an app sends it to `POST /api/events`.
public struct EventInput: Equatable, Sendable {
    public var clientEventID: String
    public var name: String
    public var occurredAt: Date
    public var properties: [String: EventValue]

    public init(clientEventID: String, name: String, occurredAt: Date, properties: [String: EventValue] = [:]) {
        self.clientEventID = clientEventID
        self.name = name
        self.occurredAt = occurredAt
        self.properties = properties
    }

    public static let maximumBatch = 500
    public static let maximumProperties = 50
    /// How old an event may be: an app offline for weeks still delivers what it recorded.
    public static let maximumAge: TimeInterval = 30 * 86_400
    /// App events one person may send in any 24 hours (ten full batches): a busy app sends a few hundred a
    /// day, and nobody fills the database (500 a request at the request rate was 200 MB a minute).
    public static let dailyQuota = 5_000
    /// How long an app event is kept after it arrived: the metrics are rolled up from the server's own
    /// events the next night, and the forwarder sends app events on within minutes.
    public static let retention: TimeInterval = 90 * 86_400

    /// Checks a batch against the app's schemas: all or nothing, every bad field named (`events[3].name`).
    public static func validate(_ batch: [EventInput], schemas: [String: EventSchema], now: Date)
        throws(ValidationError)
    {
        var validator = Validator()
        validator.check(
            !batch.isEmpty && batch.count <= self.maximumBatch,
            "events",
            "must hold 1 to \(self.maximumBatch) events"
        )
        var seen = Set<String>()
        for (index, event) in batch.prefix(self.maximumBatch).enumerated() {
            let field = "events[\(index)]"
            let id = event.clientEventID
            validator.check(
                !id.isEmpty && id.utf8.count <= 128
                    && !id.unicodeScalars.contains { $0.properties.generalCategory == .control },
                field + ".clientEventId",
                "must be 1–128 bytes in UTF-8, without control characters"
            )
            validator.check(seen.insert(id).inserted, field + ".clientEventId", "is given twice in the batch")
            validator.check(
                event.occurredAt <= now.addingTimeInterval(300),
                field + ".occurredAt",
                "must not be more than 5 minutes in the future"
            )
            validator.check(
                event.occurredAt >= now.addingTimeInterval(-self.maximumAge),
                field + ".occurredAt",
                "must be within the last 30 days"
            )
            validator.check(
                event.properties.count <= self.maximumProperties,
                field + ".properties",
                "must hold at most \(self.maximumProperties) properties"
            )
            if let schema = schemas[event.name] {
                if event.properties.count <= self.maximumProperties {
                    schema.check(event.properties, into: &validator, field: field + ".properties")
                }
            } else if ServerEvent(rawValue: event.name) != nil {
                validator.fail(field + ".name", "'\(event.name)' is recorded by the server, not sent by apps")
            } else {
                validator.fail(
                    field + ".name",
                    "'\(EventSchema.printable(event.name))' is not an event of this app; known: \(schemas.keys.sorted().joined(separator: ", "))"
                )
            }
        }
        try validator.throwIfInvalid()
    }
}
