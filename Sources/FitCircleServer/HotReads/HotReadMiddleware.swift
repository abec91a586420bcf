import FitCircleCore
import FitCircleEngine
import Foundation
import HTTPTypes
import Hummingbird
import Metrics
import NIOCore

/// One of the few hottest reads (issue 42; docs/architecture.md, "Hot reads"), answered before the generated
/// stack with its JSON written by hand (`JSONWriter`). `openapi.yaml` still describes it and the generated
/// handler still serves it whenever `input` declines: a hot read takes only the requests it knows how to
/// answer exactly (a board's first page, say), and everything else — other parameters, a caller who is not
/// signed in — goes the usual way, errors included. `HotReadContractTests` decodes every hot answer with
/// the generated types and compares it with the generated path's.
protocol HotRead: Sendable {
    associatedtype Input: Sendable
    /// The operation of `openapi.yaml` it answers, which declares its `304`.
    var operationID: String { get }
    /// Its path as the document writes it (`/api/fitcircles/{id}/leaderboard`); it answers `GET`.
    var path: String { get }

    /// What to read, from the path's parameters in order and the query; nil leaves the request to the
    /// generated stack.
    func input(path: [Substring], query: some Sequence<(key: Substring, value: Substring)>) -> Input?
    /// The answer's JSON and its own headers; a thrown error is answered as the generated stack would.
    func answer(_ input: Input, for caller: Caller) async throws -> HotAnswer
}

struct HotAnswer: Sendable {
    var json: [UInt8]
    var headers: HTTPFields
    /// The bytes' `EntityTag`, computed once.
    let tag: String
    /// Whether the answer was served again from what was kept (`KeptAnswers`), rather than built.
    var wasKept = false

    init(json: [UInt8], headers: HTTPFields = [:]) {
        self.json = json
        self.headers = headers
        self.tag = EntityTag.of(json)
    }
}

/// Serves the hot reads: signs the caller in and counts the request against their budget exactly as the
/// generated stack's middleware does (the same functions), then answers with the `ETag` of the bytes and a
/// `304` when the client holds them (as `ConditionalGetMiddleware` does).
struct HotReadMiddleware<Context: RequestContext>: RouterMiddleware {
    private let reads: [(template: [Substring], route: String, read: any HotRead)]
    /// The last part of every hot read's path (`/leaderboard`): a request's path is split only when it ends so.
    private let endings: [String]
    let authentication: AuthenticationMiddleware
    let rateLimits: RateLimitMiddleware
    /// `fitcircle_hot_reads_total` by operation and answer (`built`, `kept`), made once.
    private let counters: [String: (built: Counter, kept: Counter)]

    init(_ reads: [any HotRead], authentication: AuthenticationMiddleware, rateLimits: RateLimitMiddleware, metrics: any MetricsFactory) {
        self.reads = reads.map { (Substring($0.path).split(separator: "/"), RouterPath($0.path).description, $0) }
        self.endings = Array(Set(self.reads.compactMap { $0.template.last.map { $0.first == "{" ? "" : "/\($0)" } }))
        self.authentication = authentication
        self.rateLimits = rateLimits
        self.counters = Dictionary(
            reads.map { read in
                let counter = { (answer: String) in
                    Counter(label: "fitcircle_hot_reads_total", dimensions: [("operation", read.operationID), ("answer", answer)], factory: metrics)
                }
                return (read.operationID, (counter("built"), counter("kept")))
            }
        ) { first, _ in first }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .get, let (read, route, values) = self.match(request.uri.path) else { return try await next(request, context) }
        if let response = try await self.serve(read, values, route: route, request, context) { return response }
        return try await next(request, context)
    }

    private func match(_ path: String) -> (any HotRead, String, [Substring])? {
        // Compared as bytes: `String.hasSuffix` compares characters, in Unicode's canonical equivalence.
        guard self.endings.contains(where: { path.utf8.count >= $0.utf8.count && path.utf8.suffix($0.utf8.count).elementsEqual($0.utf8) }) else {
            return nil
        }
        let parts = Substring(path).split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        for (template, route, read) in self.reads where template.count == parts.count {
            var values: [Substring] = []
            var matched = true
            for (expected, part) in zip(template, parts) {
                if expected.first == "{" {
                    // A value with escapes or nothing in it is the router's to decode or refuse.
                    guard !part.isEmpty, !part.utf8.contains(UInt8(ascii: "%")) else { return nil }
                    values.append(part)
                } else if expected != part {
                    matched = false
                    break
                }
            }
            if matched { return (read, route, values) }
        }
        return nil
    }

    private func serve<Read: HotRead>(
        _ read: Read, _ values: [Substring], route: String, _ request: Request, _ context: Context
    ) async throws -> Response? {
        guard let input = read.input(path: values, query: request.uri.queryParameters),
            let caller = try? await self.authentication.caller(of: request.head, operationID: read.operationID)
        else { return nil }
        context.coreContext.endpointPath.value = route
        let limit = try await self.rateLimits.admit(caller, operationID: read.operationID)
        let answer = try await RequestCaller.$current.withValue(caller) { try await read.answer(input, for: caller) }
        var headers = answer.headers
        if let (limit, decision) = limit {
            headers[.rateLimitPolicy] = limit.policyHeader
            headers[.rateLimit] = limit.header(decision)
        }
        if let counters = self.counters[read.operationID] { (answer.wasKept ? counters.kept : counters.built).increment() }
        let tag = answer.tag
        headers[.eTag] = tag
        headers[.cacheControl] = "private, no-cache"
        guard !EntityTag.matches(request.headers[.ifNoneMatch], tag) else {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = "application/json; charset=utf-8"
        headers[.contentLength] = String(answer.json.count)
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.json)))
    }
}

/// Every hot read of the server.
enum HotReads {
    static func all(engine: Engine) -> [any HotRead] {
        [
            CircleBoardRead(engine: engine, kept: KeptAnswers()), ChallengeBoardRead(engine: engine, kept: KeptAnswers()),
            FeedRead(engine: engine, kept: KeptAnswers()),
        ]
    }
}
