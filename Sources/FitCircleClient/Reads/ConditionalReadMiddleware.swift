import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Reads the server tags (boards, the feed, a person's page, goals, the configuration) are asked for again
/// with the tag of the answer this client holds (`If-None-Match`); a `304` is then handed on as that answer,
/// so polling an unchanged board costs the server no bytes and the app no new JSON to trust. The answers
/// are kept per request line and credentials (another person signed in on the same client shares none),
/// at most `capacity` of them and none over `largestAnswer` bytes; the oldest used go first.
struct ConditionalReadMiddleware: ClientMiddleware {
    static let capacity = 32
    static let largestAnswer = 1 << 20

    let answers = Answers()

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard request.method == .get, let path = request.path else { return try await next(request, body, baseURL) }
        let key = Answers.Key(path: path, credentials: request.headerFields[.authorization] ?? "")
        var asked = request
        let held = await self.answers.answer(for: key)
        if let held { asked.headerFields[.ifNoneMatch] = held.tag }
        let (response, responseBody) = try await next(asked, body, baseURL)
        if response.status == .notModified, let held {
            var answered = HTTPResponse(status: .ok, headerFields: held.headers)
            answered.headerFields[.eTag] = held.tag
            return (answered, HTTPBody(held.body))
        }
        guard response.status == .ok, let tag = response.headerFields[.eTag], let responseBody else {
            return (response, responseBody)
        }
        let bytes = try await Data(collecting: responseBody, upTo: .max)
        if bytes.count <= Self.largestAnswer {
            var headers = HTTPFields()
            headers[.contentType] = response.headerFields[.contentType]
            await self.answers.keep(Answers.Answer(tag: tag, headers: headers, body: bytes), for: key)
        }
        return (response, HTTPBody(bytes))
    }

    /// The answers held, by request; the least recently used leaves first.
    actor Answers {
        struct Key: Hashable, Sendable {
            var path: String
            var credentials: String
        }

        struct Answer: Sendable {
            var tag: String
            var headers: HTTPFields
            var body: Data
        }

        private var held: [Key: Answer] = [:]
        private var order: [Key] = []

        func answer(for key: Key) -> Answer? {
            guard let answer = self.held[key] else { return nil }
            self.touch(key)
            return answer
        }

        func keep(_ answer: Answer, for key: Key) {
            self.held[key] = answer
            self.touch(key)
            while self.order.count > ConditionalReadMiddleware.capacity { self.held[self.order.removeFirst()] = nil }
        }

        var count: Int { self.held.count }

        private func touch(_ key: Key) {
            self.order.removeAll { $0 == key }
            self.order.append(key)
        }
    }
}
