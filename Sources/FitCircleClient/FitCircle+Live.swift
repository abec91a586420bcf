public import Foundation
import HTTPTypes

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension FitCircle {
    /// What the friends' feed stream tells.
    public enum FeedUpdate: Sendable {
        /// The stream is (again) listening: after a reconnection, read the feed to catch up if needed.
        case listening
        /// A workout of the person's or a friend's, as the feed shows it.
        case activity(Components.Schemas.FriendFeedItem)
    }

    /// What a circle's or a challenge's stream tells.
    public enum BoardUpdate: Sendable {
        /// The stream is (again) listening: after a reconnection, read the board to catch up.
        case listening
        /// A member's new place on one board.
        case rank(Components.Schemas.RankUpdate)
        /// A new item of the circle's feed.
        case feed(Components.Schemas.FeedItem)
    }

    /// The in-app inbox live: the unread count when it opens, then each notification as it lands (with the
    /// unread count then). Reconnects by itself and resumes after the last notification it told.
    public func inboxUpdates(resumingAfter notificationID: String? = nil) -> AsyncThrowingStream<
        Components.Schemas.InboxEvent, any Error
    > {
        self.live("api/notifications/stream", resumingAfter: notificationID) { event in
            event.event == "unread" || event.event == "notification" ? try Self.decode(event.data) : nil
        }
    }

    /// The friends' feed live. Reconnects by itself and resumes after the last workout it told (or, past
    /// the feed's newest 100, from the newest).
    public func feedUpdates(resumingAfter activityID: String? = nil, seconds: Int = 300) -> AsyncThrowingStream<
        FeedUpdate, any Error
    > {
        self.live(
            "api/feed/stream",
            query: [URLQueryItem(name: "seconds", value: "\(seconds)")],
            resumingAfter: activityID
        ) { event in
            switch event.event {
            case "ready": .listening
            case "activity": .activity(try Self.decode(event.data))
            default: nil
            }
        }
    }

    /// A circle's boards and feed live (members only).
    public func circleUpdates(circle id: String) -> AsyncThrowingStream<BoardUpdate, any Error> {
        self.live("api/fitcircles/\(Self.segment(id))/stream", decode: Self.boardUpdate)
    }

    /// A challenge's board live.
    public func challengeUpdates(challenge id: String) -> AsyncThrowingStream<BoardUpdate, any Error> {
        self.live("api/competitions/\(Self.segment(id))/stream", decode: Self.boardUpdate)
    }

    /// Any of the server's event streams, kept open: when it ends (each has a lifetime) or breaks, it is
    /// opened again — at once after a clean end, after the sync policy's backoff after a failure — with a
    /// fresh token and `Last-Event-ID`. It finishes with an error when the server refuses it for good (not
    /// a member, no such circle, the session ended), and when the caller stops iterating.
    public func events(
        at path: String,
        query: [URLQueryItem] = [],
        resumingAfter lastEventID: String? = nil
    ) -> AsyncThrowingStream<ServerSentEvent, any Error> {
        self.live(path, query: query, resumingAfter: lastEventID) { $0 }
    }

    private func live<Element: Sendable>(
        _ path: String,
        query: [URLQueryItem] = [],
        resumingAfter lastEventID: String? = nil,
        decode: @escaping @Sendable (ServerSentEvent) throws -> Element?
    ) -> AsyncThrowingStream<Element, any Error> {
        let base = self.configuration.baseURL.appendingPathComponent(path)
        var components = URLComponents(url: base, resolvingAgainstBaseURL: false)
        if !query.isEmpty { components?.queryItems = query }
        let url = components?.url ?? base
        let (authenticator, policy) = (self.authenticator, self.configuration.syncPolicy)
        return AsyncThrowingStream { continuation in
            let task = Task {
                var lastEventID = lastEventID
                var failures = 0
                while !Task.isCancelled {
                    do {
                        let token = try await authenticator.token()
                        var request = URLRequest(url: url)
                        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
                        request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
                        if let lastEventID { request.setValue(lastEventID, forHTTPHeaderField: "Last-Event-ID") }
                        request.timeoutInterval = 3_900  // longer than any stream's life: it ends on its own
                        var parser = ServerSentEventParser()
                        var refusal: (status: Int, retryAfter: String?, body: Data)?
                        for try await chunk in StreamConnection.open(request) {
                            switch chunk {
                            case .response(let status, let retryAfter):
                                if status == 200 { failures = 0 } else { refusal = (status, retryAfter, Data()) }
                            case .bytes(let data):
                                if var refused = refusal {
                                    if refused.body.count < ProblemMiddleware.largestProblem { refused.body += data }
                                    refusal = refused
                                    continue
                                }
                                for event in try parser.feed(data) {
                                    if let id = event.id { lastEventID = id }
                                    if let element = try decode(event) { continuation.yield(element) }
                                }
                            }
                        }
                        if let refusal {
                            if refusal.status == 401 {
                                _ = try await authenticator.token(replacing: token)
                                continue
                            }
                            var fields = HTTPFields()
                            fields[.retryAfter] = refusal.retryAfter
                            throw ProblemMiddleware.problem(
                                status: .init(code: refusal.status),
                                headers: fields,
                                body: refusal.body
                            )
                        }
                    } catch is CancellationError {
                        break
                    } catch {
                        if Task.isCancelled { break }
                        if !Self.isTransient(error) {
                            continuation.finish(throwing: error)
                            return
                        }
                        failures += 1
                        try? await Task.sleep(
                            for: policy.backoff(afterFailures: failures, retryAfter: error.fitCircleProblem?.retryAfter)
                        )
                    }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    private static func boardUpdate(_ event: ServerSentEvent) throws -> BoardUpdate? {
        switch event.event {
        case "ready": .listening
        case "rank": .rank(try Self.decode(event.data))
        case "feed": .feed(try Self.decode(event.data))
        default: nil
        }
    }

    private static func decode<Value: Decodable>(_ data: String) throws -> Value {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            let format = ISO8601DateFormatter()
            if let date = format.date(from: text) { return date }
            format.formatOptions.insert(.withFractionalSeconds)
            guard let date = format.date(from: text) else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: decoder.codingPath, debugDescription: "not an ISO 8601 date: \(text)")
                )
            }
            return date
        }
        return try decoder.decode(Value.self, from: Data(data.utf8))
    }

    /// An id as one path segment.
    private static func segment(_ id: String) -> String {
        id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/")))
            ?? id
    }
}
