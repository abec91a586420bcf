import FitCircleStore
import FitCircleTesting
import Foundation
import Testing

@testable import FitCircleClient

/// The SDK's event streams: the parser on any cut of the bytes, and the friends' feed against the real
/// binary, resumed with `Last-Event-ID` and reopened by itself when the server ends it.
@Suite(.serialized)
struct LiveStreamTests {
    @Test func theParserReadsEventsHoweverTheBytesAreCut() throws {
        let stream =
            ": comment\r\nevent: ready\r\ndata: {}\r\n\r\nid: 7\nevent: activity\ndata: line one\ndata: line two\n\ndata: plain\r\r"
        let whole = try {
            var parser = ServerSentEventParser()
            return try parser.feed(Array(stream.utf8))
        }()
        #expect(
            whole == [
                ServerSentEvent(event: "ready", data: "{}"),
                ServerSentEvent(event: "activity", id: "7", data: "line one\nline two"),
                ServerSentEvent(event: "message", id: "7", data: "plain"),
            ]
        )
        // Byte by byte, and cut between the CR and the LF of a line end, it reads the same.
        var parser = ServerSentEventParser()
        var oneByOne: [ServerSentEvent] = []
        for byte in stream.utf8 { oneByOne += try parser.feed([byte]) }
        #expect(oneByOne == whole)
    }

    @Test(arguments: Backend.available)
    func theFeedStreamResumesAfterTheLastWorkoutItToldAndReopensWhenTheServerEndsIt(_ backend: Backend) async throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: ServerProcess.binary.path),
            "build the fitcircle product first"
        )
        let location = try await backend.makeLocation()
        defer { Task { await Backend.drop(location) } }
        let server = try await ServerProcess.start(on: location)
        defer { server.kill() }
        let ana = try await FitCircle.device(on: server, email: "ana@example.com")
        let bo = try await FitCircle.device(on: server, email: "bo@example.com")
        let anaID = try #require(await ana.session?.userID)
        let boID = try #require(await bo.session?.userID)
        _ = try await ana.call { try await $0.requestFriend(body: .json(.init(userId: boID))).ok }
        _ = try await bo.call { try await $0.acceptFriendRequest(body: .json(.init(userId: anaID))).noContent }

        func run(_ name: String, minutesAgo: Double) async throws {
            try await bo.record(
                .workout(
                    .running,
                    duration: 1_200,
                    distanceMeters: 3_000,
                    at: Date().addingTimeInterval(-minutesAgo * 60),
                    id: name
                )
            )
            try await bo.sync()
        }

        // Told live, then the stream is left.
        var told: [String] = []
        var first = ana.feedUpdates(seconds: 20).makeAsyncIterator()
        guard case .listening = try await first.next() else {
            Issue.record("no ready event")
            return
        }
        try await run("run-1", minutesAgo: 40)
        guard case .activity(let one) = try await first.next() else {
            Issue.record("run-1 was not told")
            return
        }
        told.append(one.activityId)

        // Two more while nobody listens; a stream resumed after the first tells both, then ends (6 s), is
        // reopened by the SDK after the last one it told, and tells a fourth.
        try await run("run-2", minutesAgo: 30)
        try await run("run-3", minutesAgo: 20)
        var listening = 0
        for try await update in ana.feedUpdates(resumingAfter: one.activityId, seconds: 6) {
            switch update {
            case .listening: listening += 1
            case .activity(let item):
                told.append(item.activityId)
                if told.count == 3 {
                    // Past the stream's end (its last look is at 6 s): the fourth is for the reopened one.
                    try await Task.sleep(for: .seconds(2))
                    try await run("run-4", minutesAgo: 10)
                }
            }
            if told.count == 4 { break }
        }
        let held = try await bo.allActivities().sorted { $0.occurredAt < $1.occurredAt }.map(\.id)
        #expect(told == held)
        #expect(listening == 2)
    }
}
