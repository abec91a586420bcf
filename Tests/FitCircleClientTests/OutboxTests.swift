import Foundation
import Testing

@testable import FitCircleClient

/// The outbox on its own: what was added survives reopening, leaves once, and a torn write at the end of the
/// journal (a crash mid-append) loses only that record.
struct OutboxTests {
    static func directory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("outbox-\(UUID().uuidString)")
    }

    static func item(_ number: Int) -> OutboxItem {
        OutboxItem(
            id: "item-\(number)",
            kind: .activity,
            body: Data("{\"n\":\(number)}".utf8),
            recordedAt: Date(timeIntervalSince1970: Double(number))
        )
    }

    @Test func whatWasAddedSurvivesReopeningAndLeavesOnce() async throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let outbox = try Outbox(directory: directory)
            try await outbox.add((0..<10).map(Self.item))
            try await outbox.add(Self.item(3))  // the same id again is the same item
            try await outbox.accept(["item-0", "item-1"])
            try await outbox.reject(
                "item-2",
                FitCircleProblem(type: "/problems/validation-failed", title: "Invalid", status: 422)
            )
            #expect(await outbox.count == 7)
        }
        let reopened = try Outbox(directory: directory)
        #expect(await reopened.items.map(\.id) == (3..<10).map { "item-\($0)" })
        #expect(await reopened.rejections.map(\.item.id) == ["item-2"])
        #expect(await reopened.items.first == Self.item(3))
    }

    @Test func aTornLastRecordIsDroppedAndTheJournalStaysAppendable() async throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let journal = directory.appendingPathComponent("outbox.journal")
        do {
            let outbox = try Outbox(directory: directory)
            try await outbox.add((0..<3).map(Self.item))
        }
        // A crash in the middle of the next append: its length and part of its bytes reached the disk.
        let handle = try FileHandle(forWritingTo: journal)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([200, 0, 0, 0, 1, 2, 3, 4]) + Data("{\"added\":".utf8))
        try handle.close()
        do {
            let outbox = try Outbox(directory: directory)
            #expect(await outbox.count == 3)
            try await outbox.add(Self.item(3))
        }
        let reopened = try Outbox(directory: directory)
        #expect(await reopened.items.map(\.id) == ["item-0", "item-1", "item-2", "item-3"])
    }

    @Test func settledItemsAreCompactedAway() async throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let outbox = try Outbox(directory: directory)
        for round in 0..<(Outbox.compactionThreshold + 10) {
            try await outbox.add(Self.item(round))
            try await outbox.accept(["item-\(round)"])
        }
        try await outbox.add(Self.item(-1))
        let size =
            try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent("outbox.journal").path)[
                .size
            ] as! Int
        #expect(size < 10_000)
        #expect(try await Outbox(directory: directory).items == [Self.item(-1)])
    }
}
