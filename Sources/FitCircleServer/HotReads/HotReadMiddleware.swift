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
    /// Each hot read by its route as the router names the route it matched (`RouterPath.description`), with
    /// the names of the route's parameters in order: the router has resolved the path before any middleware
    /// runs, so a request is matched by one dictionary lookup, not by splitting its path again.
    private let reads: [String: (parameters: [Substring], read: any HotRead)]
    let authentication: AuthenticationMiddleware
    let rateLimits: RateLimitMiddleware
    /// `fitcircle_hot_reads_total` by operation and answer (`built`, `kept`), made once.
    private let counters: [String: (built: Counter, kept: Counter)]

    init(
        _ reads: [any HotRead],
        authentication: AuthenticationMiddleware,
        rateLimits: RateLimitMiddleware,
        metrics: any MetricsFactory
    ) {
        self.reads = Dictionary(
            reads.map { read in
                let parameters = Substring(read.path).split(separator: "/").filter { $0.first == "{" }.map {
                    $0.dropFirst().dropLast()
                }
                return (RouterPath(read.path).description, (parameters, read))
            }
        ) { first, _ in first }
        self.authentication = authentication
        self.rateLimits = rateLimits
        self.counters = Dictionary(
            reads.map { read in
                let counter = { (answer: String) in
                    Counter(
                        label: "fitcircle_hot_reads_total",
                        dimensions: [("operation", read.operationID), ("answer", answer)],
                        factory: metrics
                    )
                }
                return (read.operationID, (counter("built"), counter("kept")))
            }
        ) { first, _ in first }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard request.method == .get, let route = context.endpointPath,
            let (read, values) = self.match(route, context.parameters)
        else {
            return try await next(request, context)
        }
        if let response = try await self.serve(read, values, request, context) { return response }
        return try await next(request, context)
    }

    /// The hot read of the route the router matched and the values of its parameters, in order.
    private func match(_ route: String, _ parameters: Parameters) -> (any HotRead, [Substring])? {
        guard let (names, read) = self.reads[route] else { return nil }
        var values: [Substring] = []
        values.reserveCapacity(names.count)
        for name in names {
            // A value with escapes or nothing in it is the generated handler's to decode or refuse.
            guard let value = parameters[name], !value.isEmpty, !value.utf8.contains(UInt8(ascii: "%")) else {
                return nil
            }
            values.append(value)
        }
        return (read, values)
    }

    /// The query's fields as written (`name=value`, `&` between), or nil when anything in it is escaped
    /// (`%`, `+`): those are the generated stack's to decode. Read by hand, without allocating, because
    /// Hummingbird's `queryParameters` builds a dictionary on every read (issue 42).
    static func plainQuery(_ query: String?) -> QueryFields? {
        guard let query, !query.isEmpty else { return QueryFields(query: "") }
        guard !query.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else { return nil }
        return QueryFields(query: Substring(query))
    }

    private func serve<Read: HotRead>(
        _ read: Read,
        _ values: [Substring],
        _ request: Request,
        _ context: Context
    ) async throws -> Response? {
        guard let query = Self.plainQuery(request.uri.query), let input = read.input(path: values, query: query),
            let caller = try? await self.authentication.caller(of: request.head, operationID: read.operationID)
        else { return nil }
        let limit = try await self.rateLimits.admit(caller, operationID: read.operationID)
        let answer: HotAnswer
        do {
            answer = try await RequestCaller.$current.withValue(caller) { try await read.answer(input, for: caller) }
        } catch {
            throw limit.map { CountedFailure(underlying: error, headers: RateLimitMiddleware.headers($0, $1)) } ?? error
        }
        // Appended, not set: none of these is among the answer's own, so no field need be looked for.
        var headers = answer.headers
        headers.reserveCapacity(headers.count + 7)
        if let (limit, decision) = limit {
            headers.append(HTTPField(name: .rateLimitPolicy, value: limit.policyHeader))
            headers.append(HTTPField(name: .rateLimit, value: limit.header(decision)))
        }
        if let counters = self.counters[read.operationID] {
            (answer.wasKept ? counters.kept : counters.built).increment()
        }
        let tag = answer.tag
        headers.append(HTTPField(name: .eTag, value: tag))
        headers.append(HTTPField(name: .cacheControl, value: "private, no-cache"))
        guard !EntityTag.matches(request.headers.value(.ifNoneMatch), tag) else {
            return Response(status: .notModified, headers: headers)
        }
        headers.append(HTTPField(name: .contentType, value: "application/json; charset=utf-8"))
        headers.append(HTTPField(name: .contentLength, value: String(answer.json.count)))
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.json)))
    }
}

/// Every hot read of the server.
enum HotReads {
    static func all(engine: Engine) -> [any HotRead] {
        [
            CircleBoardRead(engine: engine, kept: KeptAnswers()),
            ChallengeBoardRead(engine: engine, kept: KeptAnswers()),
            FeedRead(engine: engine, kept: KeptAnswers()),
        ]
    }
}

/// A query's fields in order, each `name=value` (a field without `=` has an empty value), empty fields skipped.
struct QueryFields: Sequence, IteratorProtocol {
    let query: Substring
    private var index: Substring.Index

    init(query: Substring) {
        self.query = query
        self.index = query.startIndex
    }

    mutating func next() -> (key: Substring, value: Substring)? {
        let bytes = self.query.utf8
        while self.index < bytes.endIndex, bytes[self.index] == UInt8(ascii: "&") {
            self.index = bytes.index(after: self.index)
        }
        guard self.index < bytes.endIndex else { return nil }
        let start = self.index
        let end = bytes[start...].firstIndex(of: UInt8(ascii: "&")) ?? bytes.endIndex
        self.index = end
        let field = self.query[start..<end]
        guard let equals = field.utf8.firstIndex(of: UInt8(ascii: "=")) else { return (field, "") }
        return (field[..<equals], field[field.utf8.index(after: equals)...])
    }
}
