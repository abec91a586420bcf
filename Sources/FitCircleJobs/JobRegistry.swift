public import FitCircleCore

/// A feature that runs durable jobs: it registers each kind it handles, and the per-zone schedules that
/// queue some of them, when the engine is made (`JobRegistry`).
public protocol JobOwner: Sendable {
    func registerJobs(in jobs: inout JobRegistry) throws(JobRegistry.Conflict)
}

/// Every job kind of a node with its handler, and every zone schedule, as the features registered them. A
/// kind registered twice, or a schedule of a kind nobody handles, is refused when the engine is made, so a
/// node with such a mistake does not start (a merge of dictionaries once kept the first handler silently).
public struct JobRegistry: Sendable {
    public private(set) var handlers: [String: JobHandler] = [:]
    /// The kinds whose due jobs a runner takes together (`register(_:batchesOf:_:)`).
    public private(set) var batches: [String: JobBatch] = [:]
    public private(set) var schedules: [ZoneSchedule] = []
    /// Which feature registered each kind, for the message of a conflict.
    private var owners: [String: String] = [:]
    private var registering = ""

    public enum Conflict: Error, Equatable, CustomStringConvertible {
        case registeredTwice(kind: String, first: String, second: String)
        case scheduledButNotHandled(kind: String)

        public var description: String {
            switch self {
            case .registeredTwice(let kind, let first, let second):
                "The job kind '\(kind)' is registered twice, by \(first) and by \(second): each kind must have one handler."
            case .scheduledButNotHandled(let kind):
                "The job kind '\(kind)' has a zone schedule but no handler."
            }
        }
    }

    /// The jobs of `owners`, registered in order; throws the first conflict.
    public init(owners: [any JobOwner]) throws(Conflict) {
        for owner in owners {
            self.registering = String(describing: type(of: owner))
            try owner.registerJobs(in: &self)
        }
        self.registering = ""
        if let orphan = self.schedules.first(where: { self.handlers[$0.kind] == nil }) {
            throw .scheduledButNotHandled(kind: orphan.kind)
        }
    }

    /// Registers the handler of jobs of `kind`.
    public mutating func register(_ kind: String, _ handler: @escaping JobHandler) throws(Conflict) {
        if let first = self.owners[kind] { throw .registeredTwice(kind: kind, first: first, second: self.registering) }
        self.owners[kind] = self.registering
        self.handlers[kind] = handler
    }

    /// Registers the handler of jobs of `kind` that does many at once (set-based statements in one
    /// transaction): a runner gives it up to `size` due jobs of the kind together, and one at a time when
    /// a batch fails (so one job that cannot run fails alone). Run alone, a job is a batch of one.
    public mutating func register(
        _ kind: String,
        batchesOf size: Int,
        _ handler: @escaping @Sendable ([JobRecord]) async throws -> Void
    ) throws(Conflict) {
        try self.register(kind) { job in try await handler([job]) }
        self.batches[kind] = JobBatch(size: max(1, size), run: handler)
    }

    /// Adds per-zone schedules (`ZoneScheduler`) of kinds registered by the same or another feature.
    public mutating func schedule(_ schedules: [ZoneSchedule]) {
        self.schedules += schedules
    }
}

/// How a runner runs due jobs of one kind together: at most `size` at once, through `run`.
public struct JobBatch: Sendable {
    public let size: Int
    public let run: @Sendable ([JobRecord]) async throws -> Void
}
