/// How many requests a node works on at once, found from the latency it measures rather than set by hand: a
/// gradient limit, after Netflix's concurrency-limits and Envoy's adaptive concurrency filter.
///
/// - Every `window` (with at least `minimumSamples` answers in it) the median latency of the window is
///   compared with the node's latency without queueing, its *baseline*. Within `tolerance` times the
///   baseline the limit grows by its square root (only while the node uses at least half of it: an idle node
///   does not earn room it never tried); beyond it the limit shrinks in proportion (by half at most per
///   window), then adds the same square root, so it settles where latency is a little above the tolerance.
/// - The baseline is the lowest median of the windows in which the node was not using its limit, kept for
///   `baselineLifetime`. A node busy for longer than that cannot see its unqueued latency any more (and
///   taking its loaded latency as the baseline would let the limit creep up): it *probes*, holding the
///   limit at `minimum` until `minimumSamples` requests admitted meanwhile have answered, and takes their
///   median as the new baseline.
///
/// A value owned by one node behind a lock; times are a monotonic clock's nanoseconds.
public struct ConcurrencyLimit: Sendable {
    public struct Settings: Sendable, Equatable {
        public var minimum: Int
        public var maximum: Int
        /// Where a node starts; it grows from there when it is busy and latency allows.
        public var initial: Int
        /// The latency accepted before the limit shrinks, as a multiple of the baseline.
        public var tolerance: Double
        public var window: UInt64
        public var minimumSamples: Int
        public var baselineLifetime: UInt64

        public init(
            minimum: Int = 8,
            maximum: Int = 512,
            initial: Int = 32,
            tolerance: Double = 3,
            window: UInt64 = 100_000_000,
            minimumSamples: Int = 16,
            baselineLifetime: UInt64 = 30_000_000_000
        ) {
            self.minimum = max(1, min(minimum, maximum))
            self.maximum = max(self.minimum, maximum)
            self.initial = max(self.minimum, min(initial, self.maximum))
            self.tolerance = tolerance.isFinite ? max(1, tolerance) : 3
            self.window = max(1, window)
            self.minimumSamples = max(1, minimumSamples)
            self.baselineLifetime = max(self.window, baselineLifetime)
        }
    }

    /// At most this many latencies are kept per window: enough for a median, bounded whatever the rate.
    static let samplesPerWindow = 1_024

    public let settings: Settings
    /// The limit found, probing aside.
    private var estimate: Double
    /// The node's latency without queueing (nanoseconds), and when it was last seen.
    public private(set) var baseline: UInt64?
    private var baselineSeenAt: UInt64 = 0
    /// When the current probe began, while the node probes.
    private var probingSince: UInt64?
    private var windowStart: UInt64
    private var samples: [UInt64] = []
    private var busiest = 0

    public init(_ settings: Settings, now: UInt64) {
        self.settings = settings
        self.estimate = Double(settings.initial)
        self.windowStart = now
        self.samples.reserveCapacity(Self.samplesPerWindow)
    }

    /// The requests the node may work on at once now.
    public var limit: Int { self.probingSince == nil ? Int(self.estimate) : self.settings.minimum }

    /// A request admitted at `admittedAt` (during the probe or not, as `isProbing` said then) answered at `now`,
    /// while `inFlight` requests were being worked on (itself included).
    public mutating func record(admittedAt: UInt64, duringProbe: Bool, inFlight: Int, now: UInt64) {
        let latency = Self.elapsed(from: admittedAt, to: now)
        if let since = self.probingSince {
            // Only what the probe admitted shows the unqueued latency; what was in flight before it does not.
            guard duringProbe, admittedAt >= since else { return }
            self.keep(latency)
            if self.samples.count >= self.settings.minimumSamples {
                self.baseline = Self.median(&self.samples)
                self.baselineSeenAt = now
                self.probingSince = nil
                self.startWindow(at: now)
            }
            return
        }
        self.keep(latency)
        self.busiest = max(self.busiest, inFlight)
        guard Self.elapsed(from: self.windowStart, to: now) >= self.settings.window else { return }
        if self.samples.count >= self.settings.minimumSamples { self.closeWindow(at: now) }
        // A window with too few answers goes on until it has them.
    }

    /// Whether a request admitted now is part of the probe.
    public var isProbing: Bool { self.probingSince != nil }

    private mutating func keep(_ latency: UInt64) {
        if self.samples.count < Self.samplesPerWindow { self.samples.append(latency) }
    }

    private mutating func closeWindow(at now: UInt64) {
        let median = Self.median(&self.samples)
        let busy = Double(self.busiest) >= self.estimate / 2
        let baselineAge = Self.elapsed(from: self.baselineSeenAt, to: now)
        if !busy, median <= (self.baseline ?? .max) || baselineAge >= self.settings.baselineLifetime {
            self.baseline = median
            self.baselineSeenAt = now
        } else if !busy, let baseline = self.baseline, median <= baseline / 10 * 11 {
            self.baselineSeenAt = now  // seen again, near enough
        }
        defer { self.startWindow(at: now) }
        guard let baseline = self.baseline else {
            // Busy before it ever saw itself idle: learn the baseline first.
            self.probingSince = now
            return
        }
        if busy, baselineAge >= self.settings.baselineLifetime {
            self.probingSince = now
            return
        }
        let gradient = min(1, max(0.5, self.settings.tolerance * Double(baseline) / Double(max(median, 1))))
        // An idle node keeps its limit: latency within bounds says nothing about more load.
        if gradient >= 1 && !busy { return }
        let next = self.estimate * gradient + self.estimate.squareRoot()
        self.estimate = min(Double(self.settings.maximum), max(Double(self.settings.minimum), next))
    }

    private mutating func startWindow(at now: UInt64) {
        self.windowStart = now
        self.samples.removeAll(keepingCapacity: true)
        self.busiest = 0
    }

    /// Time between two readings, never negative: callers read the clock before taking the lock, so a
    /// reading may be older than the last one recorded.
    private static func elapsed(from start: UInt64, to end: UInt64) -> UInt64 { end >= start ? end - start : 0 }

    private static func median(_ samples: inout [UInt64]) -> UInt64 {
        samples.sort()
        return samples[samples.count / 2]
    }
}
