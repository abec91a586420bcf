public import Foundation

/// The durable queue of what the app recorded: every item is on disk (`fsync`) before `add` returns, stays
/// until the server has acknowledged it, and leaves exactly once. A journal of "added", "accepted" and
/// "rejected" records, rewritten without the settled ones once they are most of it.
public actor Outbox {
    /// How many rejections are kept for the app to show.
    static let keptRejections = 100
    /// Settled records the journal may hold before it is rewritten.
    static let compactionThreshold = 2_000

    private let journal: Journal
    private var pending: [OutboxItem] = []
    private var pendingIDs: Set<String> = []
    /// Every id ever added that is still in the journal: an id added twice is one item.
    private var knownIDs: Set<String> = []
    private var settledRecords = 0
    public private(set) var rejections: [OutboxRejection] = []

    private enum Record: Codable {
        case added(OutboxItem)
        case accepted([String])
        case rejected(String, FitCircleProblem)
    }

    /// Opens (or creates) the outbox kept in `directory`, with what a previous run left in it.
    public init(directory: URL) throws {
        self.journal = try Journal(url: directory.appendingPathComponent("outbox.journal"))
        var added: [String: OutboxItem] = [:]
        var order: [String] = []
        for data in try self.journal.records() {
            switch try OutboxCoding.decoder.decode(Record.self, from: data) {
            case .added(let item):
                if added.updateValue(item, forKey: item.id) == nil { order.append(item.id) }
            case .accepted(let ids):
                ids.forEach { added[$0] = nil }
                self.settledRecords += 1
            case .rejected(let id, let problem):
                if let item = added.removeValue(forKey: id) {
                    self.rejections.append(OutboxRejection(item: item, problem: problem))
                }
                self.settledRecords += 1
            }
        }
        self.pending = order.compactMap { added[$0] }
        self.pendingIDs = Set(self.pending.map(\.id))
        self.knownIDs = Set(order)
        self.rejections = Array(self.rejections.suffix(Self.keptRejections))
    }

    /// How many items wait for the server.
    public var count: Int { self.pending.count }

    /// Keeps `items` durably; those already in the outbox (same id) are not added again.
    public func add(_ items: [OutboxItem]) throws {
        let fresh = items.filter { self.knownIDs.insert($0.id).inserted }
        guard !fresh.isEmpty else { return }
        do {
            try self.journal.append(fresh.map { try OutboxCoding.encoder.encode(Record.added($0)) })
        } catch {
            fresh.forEach { self.knownIDs.remove($0.id) }
            throw error
        }
        self.pending.append(contentsOf: fresh)
        fresh.forEach { self.pendingIDs.insert($0.id) }
    }

    public func add(_ item: OutboxItem) throws {
        try self.add([item])
    }

    /// The oldest waiting items, in the order they were recorded.
    public func next(_ limit: Int) -> [OutboxItem] {
        Array(self.pending.prefix(limit))
    }

    /// Every waiting item, oldest first.
    public var items: [OutboxItem] { self.pending }

    /// The server has these: they leave the outbox.
    func accept(_ ids: [String]) throws {
        let ids = ids.filter(self.pendingIDs.contains)
        guard !ids.isEmpty else { return }
        try self.journal.append([try OutboxCoding.encoder.encode(Record.accepted(ids))])
        self.remove(Set(ids))
        try self.compactIfWorthIt()
    }

    /// The server refused this item for good: it leaves the outbox, and the app can read why.
    func reject(_ id: String, _ problem: FitCircleProblem) throws {
        guard let item = self.pending.first(where: { $0.id == id }) else { return }
        try self.journal.append([try OutboxCoding.encoder.encode(Record.rejected(id, problem))])
        self.remove([id])
        self.rejections.append(OutboxRejection(item: item, problem: problem))
        if self.rejections.count > Self.keptRejections {
            self.rejections.removeFirst(self.rejections.count - Self.keptRejections)
        }
        try self.compactIfWorthIt()
    }

    private func remove(_ ids: Set<String>) {
        self.pending.removeAll { ids.contains($0.id) }
        self.pendingIDs.subtract(ids)
        self.settledRecords += 1
    }

    /// Rewrites the journal with the waiting items and the kept rejections only. Settled ids are forgotten
    /// then: an item added again after that is a new item (the server still answers it as a replay).
    private func compactIfWorthIt() throws {
        guard self.settledRecords >= Self.compactionThreshold || (self.pending.isEmpty && self.settledRecords >= 64)
        else { return }
        var records = try self.rejections.flatMap {
            [
                try OutboxCoding.encoder.encode(Record.added($0.item)),
                try OutboxCoding.encoder.encode(Record.rejected($0.item.id, $0.problem)),
            ]
        }
        records += try self.pending.map { try OutboxCoding.encoder.encode(Record.added($0)) }
        try self.journal.replace(with: records)
        self.settledRecords = self.rejections.count
        self.knownIDs = self.pendingIDs.union(self.rejections.map(\.item.id))
    }
}
