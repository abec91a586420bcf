// The SDK's outbox and sync, each next to its baseline in the same run (scripts/bench-sdk.sh):
// 1. durable appends per second: `Outbox.add`, one item per call and 100 per call, next to raw appends of the
//    same bytes to a file with one fsync each time (what any durable append costs on this disk);
// 2. sync throughput against a live server: 5,000 recorded activities sent by `FitCircle.sync()` (batches of
//    500), next to the same 5,000 as prebuilt JSON batches POSTed straight to `/api/activities/batch`.
// Usage: OutboxBenchmark <appends> [server URL]
import FitCircleClient
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#endif

let appends = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 2_000
let server = CommandLine.arguments.dropFirst(2).first.flatMap(URL.init(string:))
let clock = ContinuousClock()

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

func temporary(_ name: String) -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("outbox-bench-\(name)-\(UUID().uuidString)")
}

/// A record about as large as an outbox item's: a steps activity's JSON.
func body(_ index: Int) -> Data {
    Data(
        #"{"clientEventId":"bench-\#(index)","occurredAt":1764000000000,"source":"app","steps":\#(index % 90 + 10),"timeZone":"Europe/Paris","type":"steps"}"#
            .utf8
    )
}

/// Raw appends with one fsync per `perSync` records: the baseline.
func rawAppends(_ count: Int, perSync: Int) throws -> Double {
    let url = temporary("raw")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: url) }
    let descriptor = open(url.appendingPathComponent("raw.log").path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
    defer { close(descriptor) }
    let start = clock.now
    for first in stride(from: 0, to: count, by: perSync) {
        var bytes = Data()
        for index in first..<min(first + perSync, count) { bytes += body(index) + Data([0x0A]) }
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        fsync(descriptor)
    }
    return Double(count) / seconds(clock.now - start)
}

func outboxAppends(_ count: Int, perCall: Int) async throws -> Double {
    let url = temporary("outbox")
    defer { try? FileManager.default.removeItem(at: url) }
    let outbox = try Outbox(directory: url)
    let start = clock.now
    for first in stride(from: 0, to: count, by: perCall) {
        try await outbox.add(
            (first..<min(first + perCall, count)).map {
                OutboxItem(kind: .activity, body: body($0), recordedAt: Date())
            }
        )
    }
    return Double(count) / seconds(clock.now - start)
}

print("== Durable appends (\(appends) records, best of 3)")
for perCall in [1, 100] {
    var (raw, outbox) = (0.0, 0.0)
    for _ in 0..<3 {
        raw = max(raw, try rawAppends(appends, perSync: perCall))
        outbox = max(outbox, try await outboxAppends(appends, perCall: perCall))
    }
    print(
        String(
            format: "  %3d per call: outbox %8.0f/s   raw write+fsync %8.0f/s   ratio %.2f",
            perCall,
            outbox,
            raw,
            outbox / raw
        )
    )
}

guard let server else { exit(0) }

/// A signed-in, onboarded device with its own outbox.
func device(_ email: String) async throws -> FitCircle {
    let storage = temporary("device")
    let fitCircle = try await FitCircle(
        .init(
            baseURL: server,
            storageDirectory: storage,
            sessionStore: MemorySessionStore(),
            syncPolicy: SyncPolicy(batchSize: 500)
        )
    )
    try await fitCircle.signInForDevelopment(email: email)
    _ = try await fitCircle.call {
        try await $0.updateProfile(
            body: .json(
                .init(displayName: "Bench", age: 30, weight: .init(value: 70, unit: .kg), timeZone: "Europe/Paris")
            )
        ).ok
    }
    return fitCircle
}

func history(_ prefix: String, _ count: Int) -> [Components.Schemas.ActivityInput] {
    let now = Date()
    return (0..<count).map { .steps(10 + $0 % 90, at: now.addingTimeInterval(-Double($0) * 60), id: "\(prefix)-\($0)") }
}

let events = 5_000
print("== Sync throughput (\(events) activities in batches of 500, against \(server))")
for round in 1...2 {
    let sdk = try await device("sdk-\(round)-\(UUID().uuidString.prefix(8))@example.com")
    try await sdk.record(history("sdk", events))
    let started = clock.now
    try await sdk.sync()
    let sdkRate = Double(events) / seconds(clock.now - started)
    let left = await sdk.syncStatus.pending
    precondition(left == 0, "\(left) left unsent")

    // The baseline: the same content as prebuilt JSON, straight to the batch endpoint.
    let raw = try await device("raw-\(round)-\(UUID().uuidString.prefix(8))@example.com")
    let token = await raw.session!.accessToken
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    let inputs = history("raw", events)
    let bodies = try stride(from: 0, to: events, by: 500).map {
        try encoder.encode(["events": Array(inputs[$0..<min($0 + 500, events)])])
    }
    let rawStart = clock.now
    for body in bodies {
        var request = URLRequest(url: server.appendingPathComponent("api/activities/batch"))
        request.httpMethod = "POST"
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let (_, response) = try await URLSession.shared.upload(for: request, from: body)
        precondition((response as? HTTPURLResponse)?.statusCode == 200)
    }
    let rawRate = Double(events) / seconds(clock.now - rawStart)
    print(
        String(
            format: "  round %d: SDK sync %6.0f events/s   direct batch POSTs %6.0f events/s   ratio %.2f",
            round,
            sdkRate,
            rawRate,
            sdkRate / rawRate
        )
    )
}
