import Foundation

/// Holds the session and hands out a valid access token. The token is refreshed ahead of its expiry, and at
/// most once for any number of calls racing on an expired or rejected token: refresh tokens rotate, and a
/// second exchange of the same refresh token would make the server revoke the whole session.
actor Authenticator {
    private var session: StoredSession?
    private var refreshing: Task<StoredSession, any Error>?
    private let store: any SessionStore
    private let refreshMargin: TimeInterval
    private let now: @Sendable () -> Date
    private let exchange: @Sendable (_ refreshToken: String) async throws -> StoredSession
    /// How many times the token pair was exchanged, for the tests and the sample's diagnostics.
    private(set) var refreshes = 0

    init(
        store: any SessionStore,
        refreshMargin: TimeInterval,
        now: @escaping @Sendable () -> Date,
        exchange: @escaping @Sendable (_ refreshToken: String) async throws -> StoredSession
    ) {
        self.store = store
        self.refreshMargin = refreshMargin
        self.now = now
        self.exchange = exchange
        // An unreadable store is a signed-out device, not a crash at launch.
        self.session = try? store.load()
    }

    var current: StoredSession? { self.session }

    func begin(_ session: StoredSession) throws {
        self.refreshing?.cancel()
        self.refreshing = nil
        self.session = session
        try self.store.save(session)
    }

    func end() {
        self.refreshing?.cancel()
        self.refreshing = nil
        self.session = nil
        try? self.store.clear()
    }

    /// A token to send now: the current one unless it expires within the margin.
    func token() async throws -> String {
        if let refreshing { return try await refreshing.value.accessToken }
        guard let session else { throw FitCircleError.notSignedIn }
        if session.accessTokenExpiresAt.timeIntervalSince(self.now()) > self.refreshMargin {
            return session.accessToken
        }
        return try await self.refresh(replacing: session.accessToken).accessToken
    }

    /// A token to send after the server refused `rejected` with a 401: a newer one if another call already
    /// refreshed, else one refresh shared with every other call that was refused meanwhile.
    func token(replacing rejected: String) async throws -> String {
        try await self.refresh(replacing: rejected).accessToken
    }

    private func refresh(replacing rejected: String) async throws -> StoredSession {
        if let refreshing { return try await refreshing.value }
        guard let session else { throw FitCircleError.notSignedIn }
        if session.accessToken != rejected { return session }
        let task = Task { [exchange] in try await exchange(session.refreshToken) }
        self.refreshing = task
        do {
            let fresh = try await task.value
            self.refreshing = nil
            guard self.session != nil else { throw FitCircleError.notSignedIn }  // signed out meanwhile
            self.session = fresh
            self.refreshes += 1
            try? self.store.save(fresh)
            return fresh
        } catch {
            self.refreshing = nil
            // The refresh token itself was refused: this device's session is over.
            if let problem = error.fitCircleProblem, (400..<500).contains(problem.status), problem.status != 429 {
                self.session = nil
                try? self.store.clear()
                throw FitCircleError.sessionEnded(problem)
            }
            throw error
        }
    }
}
