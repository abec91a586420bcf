import AsyncHTTPClient
import FitCircleTesting
import Foundation
import NIOCore
import NIOHTTP1
import Testing

@testable import FitCircleServer

/// Answers are compressed for a client that asks (`Accept-Encoding`), on the real listener (the compressor
/// is a channel handler, which the in-process tests do not pass through): gzip for JSON or CSS of a few
/// kilobytes, its content the same once inflated; nothing for a client that does not ask, nor for an answer
/// under a kilobyte or over 64 KB.
/// The listener does not depend on the database: SQLite only.
struct ResponseCompressionTests {
    @Test func largeAnswersAreCompressedForClientsThatAsk() async throws {
        let location = try await Backend.sqlite.makeLocation()
        defer { Task { await Backend.drop(location) } }
        let server = try await ServerProcess.start(database: location.serveURL)
        defer { server.kill() }
        let (token, _) = try await server.member("ana@example.com")
        // `HTTPClient.shared` asks for compressed answers and inflates them itself: one client that does not,
        // to see the bytes as sent, and one that does, to compare the content.
        let raw = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(decompression: .disabled))
        let inflating = HTTPClient(
            eventLoopGroupProvider: .singleton,
            configuration: .init(decompression: .enabled(limit: .ratio(50)))
        )
        defer {
            _ = raw.shutdown()
            _ = inflating.shutdown()
        }

        func get(_ path: String, encoding: String?, ifNoneMatch: String? = nil, inflate: Bool = false)
            async throws -> (head: HTTPClientResponse, body: Data)
        {
            let client = inflate ? inflating : raw
            var request = HTTPClientRequest(url: "\(server.url)\(path)")
            request.headers.add(name: "Authorization", value: "Bearer \(token)")
            if let encoding { request.headers.add(name: "Accept-Encoding", value: encoding) }
            if let ifNoneMatch { request.headers.add(name: "If-None-Match", value: ifNoneMatch) }
            let response = try await client.execute(request, timeout: .seconds(10))
            return (response, Data(buffer: try await response.body.collect(upTo: 8 << 20)))
        }

        for path in ["/assets/css/app.css", "/api/badges"] {
            let plain = try await get(path, encoding: nil)
            #expect(plain.head.headers["content-encoding"].isEmpty && plain.body.count >= 1024, "\(path)")
            let packed = try await get(path, encoding: "gzip")
            #expect(packed.head.headers.first(name: "content-encoding") == "gzip", "\(path)")
            #expect(packed.body.prefix(2) == Data([0x1F, 0x8B]) && packed.body.count < plain.body.count / 2, "\(path)")
            #expect(packed.head.headers["vary"].contains("Accept-Encoding"))
            let inflated = try await get(path, encoding: "gzip", inflate: true)
            #expect(inflated.body == plain.body, "\(path): the inflated answer differs")
        }

        // The health check is under a kilobyte and the document over 64 KB: both go as they are.
        let health = try await get("/healthz", encoding: "gzip")
        #expect(health.head.headers["content-encoding"].isEmpty && health.body.count < 1024)
        let document = try await get("/openapi.yaml", encoding: "gzip")
        #expect(document.head.headers["content-encoding"].isEmpty && document.body.count > 64 * 1024)

    }

    /// What is compressed, and what a compressed answer's head says: it varies by `Accept-Encoding`, and its
    /// tag is weak (the same content in other bytes; `EntityTag.matches` compares weakly, so a 304 still
    /// answers it).
    @Test func theHeadOfACompressedAnswerSaysSo() {
        func head(_ type: String, length: Int?, tag: String? = "\"abc\"") -> HTTPResponseHead {
            var headers = HTTPHeaders([("content-type", type)])
            if let length { headers.add(name: "content-length", value: "\(length)") }
            if let tag { headers.add(name: "etag", value: tag) }
            return HTTPResponseHead(version: .http1_1, status: .ok, headers: headers)
        }
        var json = head("application/json", length: 5000)
        #expect(ResponseCompression.intent(&json, supported: true) == .compressIfPossible)
        #expect(json.headers["etag"] == ["W/\"abc\""] && json.headers["vary"] == ["Accept-Encoding"])
        #expect(json.headers["content-length"].isEmpty && json.headers["transfer-encoding"] == ["chunked"])
        var plain = head("application/json", length: 5000)
        #expect(ResponseCompression.intent(&plain, supported: false) == .compressIfPossible)
        #expect(plain.headers["etag"] == ["\"abc\""] && plain.headers["vary"] == ["Accept-Encoding"])
        #expect(plain.headers["content-length"] == ["5000"])
        var streamed = head("application/x-ndjson", length: nil)
        #expect(ResponseCompression.intent(&streamed, supported: true) == .compressIfPossible)
        for (type, length) in [
            ("text/event-stream", nil), ("image/jpeg", 9_000), ("application/json", 1023), ("application/yaml", 70_000),
        ] {
            var other = head(type, length: length)
            #expect(ResponseCompression.intent(&other, supported: true) == .doNotCompress, "\(type)")
            #expect(other.headers["vary"].isEmpty && other.headers["etag"] == ["\"abc\""])
        }
        #expect(EntityTag.matches("W/\"abc\"", "\"abc\""))
    }
}
