import Crypto
public import FitCircleCore
public import FitCircleStore
import Foundation

/// Sign-in, token refresh, sign-out and authentication of requests.
public struct Accounts: Sendable {
    let store: Store
    let rules: Rules
    let configuration: AuthConfiguration
    let verifiers: [IdentityProvider: IdentityTokenVerifier]
    let accessTokens: AccessTokens
    /// The web app's CSRF tokens, bound to sessions with the server's secret.
    public let csrf: CSRFTokens
    let ids: IDGenerator
    let clock: WallClock

    public init(
        store: Store,
        rules: Rules,
        configuration: AuthConfiguration,
        verifiers: [IdentityTokenVerifier],
        accessTokens: AccessTokens,
        csrf: CSRFTokens,
        ids: IDGenerator,
        clock: WallClock
    ) {
        self.store = store
        self.rules = rules
        self.configuration = configuration
        self.verifiers = Dictionary(verifiers.map { ($0.provider, $0) }, uniquingKeysWith: { first, _ in first })
        self.accessTokens = accessTokens
        self.csrf = csrf
        self.ids = ids
        self.clock = clock
    }

    /// Signs in with a Google or Apple ID token, creating the account on first use, or joining the account
    /// that already has the token's verified address (one account per address, however one signs in).
    /// - Parameter timeZone: the device's IANA zone, used for a new account when valid.
    /// - Parameter nonce: the web flow's (`WebSignInFlow`), which the token must carry and which works once;
    ///   nil for an app's token.
    public func signIn(
        with provider: IdentityProvider,
        idToken: String,
        name: String?,
        timeZone: String?,
        nonce: String? = nil
    ) async throws -> SignIn {
        guard let verifier = self.verifiers[provider],
            nonce == nil ? !verifier.clientIDs.isEmpty : verifier.webClientID != nil
        else {
            // Like a route that does not exist: this server offers no such sign-in (GET /api/config says which).
            throw DomainError.notFound(resource: "sign-in method", id: provider.rawValue)
        }
        let claims: IdentityClaims
        do {
            claims = try await verifier.verify(idToken, nonce: nonce)
        } catch {
            throw DomainError.unauthenticated(
                reason: "The \(provider.rawValue.capitalized) ID token was refused (\(error))."
            )
        }
        // A web flow's nonce is spent by its sign-in: its callback, captured and sent again, or its token
        // brought to the app endpoint afterwards, signs nobody in.
        let spent = claims.nonce.map {
            (hash: Self.hash($0), until: claims.expiresAt.addingTimeInterval(IdentityClaims.allowedClockSkew))
        }
        return try await self.signIn(
            provider: provider.rawValue,
            subject: claims.subject,
            // Without an address the provider vouches for, the account has a placeholder no one else can have.
            email: claims.email?.lowercased() ?? "\(claims.subject)@\(provider.rawValue).invalid",
            linksByEmail: claims.email != nil,
            name: claims.name ?? name,
            timeZone: timeZone,
            nonce: spent.map { (hash: $0.hash, until: $0.until, spends: nonce != nil) }
        )
    }

    /// Signs in by email alone. Only for development and demos: the server must be started with `--dev-login`.
    public func devSignIn(email: String, name: String?, timeZone: String?) async throws -> SignIn {
        guard self.configuration.devLogin else { throw DomainError.notFound(resource: "route", id: "/api/auth/dev") }
        let normalized = email.trimmingCharacters(in: .whitespaces).lowercased()
        guard Self.looksLikeEmail(normalized) else {
            throw ValidationError(field: "email", reason: "must be an email address such as ana@example.com")
        }
        if let timeZone, TimeZoneID.validated(timeZone) == nil {
            throw ValidationError(
                field: "timeZone",
                reason: "must be an IANA time-zone identifier such as Europe/Paris"
            )
        }
        return try await self.signIn(
            provider: "dev",
            subject: normalized,
            email: normalized,
            linksByEmail: true,
            name: name,
            timeZone: timeZone
        )
    }

    /// - Parameter linksByEmail: whether `email` is an address someone vouches for (the provider verified
    ///   it; dev login trusts anyone), so that a first sign-in with it joins the account that has it.
    /// - Parameter nonce: the hash of the token's nonce, until when it is remembered, and whether this sign-in
    ///   spends it (the web flow) or only must not find it spent (the app endpoint).
    private func signIn(
        provider: String,
        subject: String,
        email: String,
        linksByEmail: Bool,
        name: String?,
        timeZone: String?,
        nonce: (hash: String, until: Date, spends: Bool)? = nil
    ) async throws -> SignIn {
        let now = self.clock.now()
        let refreshToken = Secrets.random()
        let (user, isNew, session) = try await self.store.transaction { tx in
            if let nonce {
                let fresh =
                    nonce.spends
                    ? try await tx.sessions.consumeSignInNonce(hash: nonce.hash, until: nonce.until)
                    : !(try await tx.sessions.isSignInNonceUsed(hash: nonce.hash))
                guard fresh else {
                    throw DomainError.unauthenticated(reason: "This sign-in was used already; sign in again.")
                }
            }
            var isNew = false
            let user: User
            if let existing = try await tx.users.find(provider: provider, subject: subject) {
                user = existing
            } else if linksByEmail, let owner = try await tx.users.find(withEmail: email) {
                user = owner
                try await tx.users.link(owner.id, provider: provider, subject: subject, email: email, at: now)
            } else {
                isNew = true
                user = User(
                    id: self.ids.make(),
                    email: email,
                    profile: .initial(
                        suggestedName: name,
                        email: email,
                        timeZone: timeZone,
                        onboarding: self.rules.base.onboarding,
                        units: self.rules.base.units,
                        now: now
                    ),
                    createdAt: now
                )
                try await tx.users.insert(user, provider: provider, subject: subject)
                try await tx.notifications.save(NotificationPreferences.defaults, of: user.id, at: now)
                try await ReminderPlanner.planRestOfToday(for: user.id, rules: self.rules, at: now, in: tx)
                try await Circles.tellNewAccount(
                    user,
                    catalog: self.rules.base.notifications,
                    ids: self.ids,
                    in: tx,
                    at: now
                )
            }
            guard user.disabledAt == nil else { throw DomainError.forbidden(reason: "This account is disabled.") }
            let session = Session(id: self.ids.make(), userID: user.id, createdAt: now)
            try await tx.sessions.insert(session)
            try await tx.sessions.insert(self.refreshRecord(refreshToken, session: session, issuedAt: now))
            return (user, isNew, session)
        }
        return try await self.tokens(for: session, user: user, refreshToken: refreshToken, isNewUser: isNew)
    }

    /// Exchanges a refresh token for new tokens. Each refresh token works once: presenting a used one
    /// means it leaked, so the whole session (its family) is revoked.
    public func refresh(_ refreshToken: String) async throws -> SignIn {
        let now = self.clock.now()
        let next = Secrets.random()
        let hash = Self.hash(refreshToken)
        enum Outcome: Sendable {
            case rotated(Session, User)
            case reused
        }
        let outcome = try await self.store.transaction { tx -> Outcome in
            guard let record = try await tx.sessions.refreshToken(hash: hash),
                let session = try await tx.sessions.session(record.sessionID), !session.isRevoked,
                let user = try await tx.users.find(session.userID), user.disabledAt == nil
            else {
                throw DomainError.unauthenticated(reason: "The refresh token is not valid.")
            }
            guard record.expiresAt > now else {
                throw DomainError.unauthenticated(reason: "The refresh token has expired.")
            }
            guard self.end(of: session) > now else {
                throw DomainError.unauthenticated(reason: "The session has ended; sign in again.")
            }
            guard record.usedAt == nil, try await tx.sessions.markUsed(refreshTokenHash: hash, at: now) else {
                try await tx.sessions.revoke(session.id, reason: "refresh token reused", at: now)
                return .reused
            }
            try await tx.sessions.insert(self.refreshRecord(next, session: session, issuedAt: now))
            return .rotated(session, user)
        }
        switch outcome {
        case .reused:
            // Thrown after the commit, so the revocation sticks.
            throw DomainError.unauthenticated(reason: "The refresh token was already used; the session is revoked.")
        case .rotated(let session, let user):
            return try await self.tokens(for: session, user: user, refreshToken: next, isNewUser: false)
        }
    }

    /// Signs the caller's session out: its refresh tokens and access tokens stop working.
    public func signOut(_ caller: Caller) async throws {
        let now = self.clock.now()
        try await self.store.transaction { tx in
            try await tx.sessions.revoke(caller.sessionID, reason: "signed out", at: now)
        }
    }

    /// The caller an access token belongs to, if the token is valid, its session live and its account enabled;
    /// from this node's memory when it can (`Store.cachedSessionAndUser`).
    public func authenticate(accessToken: String) async throws -> Caller {
        let (userID, sessionID) = try await self.accessTokens.verify(accessToken)
        guard let (session, user) = try await self.store.cachedSessionAndUser(sessionID), session.userID == userID,
            !session.isRevoked
        else {
            throw DomainError.unauthenticated(reason: "The session was signed out.")
        }
        guard user.disabledAt == nil else {
            throw DomainError.unauthenticated(reason: "The account is disabled or gone.")
        }
        return Caller(user: user, sessionID: sessionID)
    }

    /// Whether the caller's session still holds: not signed out or revoked, not past its end, its account
    /// enabled. From this node's memory when it can, which other nodes' sign-outs reach (`Store.listen`):
    /// open streams ask it to end when the session does.
    public func isSignedIn(_ caller: Caller) async -> Bool {
        let found: (session: Session, user: User)?
        do {
            found = try await self.store.cachedSessionAndUser(caller.sessionID)
        } catch {
            return true  // the database did not answer, which says nothing about the session
        }
        guard let (session, user) = found else { return false }
        return !session.isRevoked && user.disabledAt == nil && self.end(of: session) > self.clock.now()
    }

    /// Which sign-in methods are configured for apps (`POST /api/auth/…`).
    public var availableSignIn: AvailableSignIn {
        AvailableSignIn(
            google: !(self.verifiers[.google]?.clientIDs.isEmpty ?? true),
            apple: !(self.verifiers[.apple]?.clientIDs.isEmpty ?? true),
            dev: self.configuration.devLogin
        )
    }

    /// Whether the web flow of `provider` is configured (its web client ID).
    public func signsInOnTheWeb(with provider: IdentityProvider) -> Bool {
        self.verifiers[provider]?.webClientID != nil
    }

    /// Forgets the spent nonces of web sign-ins whose tokens have expired (housekeeping).
    public func purgeUsedNonces() async throws -> Int {
        let now = self.clock.now()
        return try await Housekeeping.inBatches(on: self.store) { tx, limit in
            try await tx.sessions.purgeSignInNonces(expiredBefore: now, limit: limit)
        }
    }

    private func tokens(for session: Session, user: User, refreshToken: String, isNewUser: Bool) async throws -> SignIn
    {
        let access = try await self.accessTokens.issue(for: session, endingAt: self.end(of: session))
        return SignIn(
            accessToken: access.token,
            issuedAt: access.issuedAt,
            accessTokenExpiresAt: access.expiresAt,
            refreshToken: refreshToken,
            refreshTokenExpiresAt: self.refreshTokenExpiry(of: session, issuedAt: access.issuedAt),
            user: user,
            sessionID: session.id,
            isNewUser: isNewUser
        )
    }

    private func refreshRecord(_ token: String, session: Session, issuedAt: Date) -> RefreshTokenRecord {
        RefreshTokenRecord(
            tokenHash: Self.hash(token),
            sessionID: session.id,
            issuedAt: issuedAt,
            expiresAt: self.refreshTokenExpiry(of: session, issuedAt: issuedAt)
        )
    }

    /// When the session ends however often it is refreshed (`AuthConfiguration.sessionLifetime`).
    private func end(of session: Session) -> Date {
        session.createdAt.addingTimeInterval(self.configuration.sessionLifetime)
    }

    private func refreshTokenExpiry(of session: Session, issuedAt: Date) -> Date {
        min(issuedAt.addingTimeInterval(self.configuration.refreshTokenLifetime), self.end(of: session))
    }

    /// Refresh tokens are stored only as SHA-256 hashes: a leaked database holds no usable token.
    static func hash(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    static func looksLikeEmail(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && parts[1].contains(".") && text.utf8.count <= 254
            && !text.contains(where: \.isWhitespace)
            && !text.unicodeScalars.contains { [.control, .format].contains($0.properties.generalCategory) }
    }
}
