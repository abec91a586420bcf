import AsyncHTTPClient
public import FitCircleCore
import FitCircleDelivery
public import FitCircleStore
public import Foundation

extension Engine {
    /// Gathers the secrets and the context, then assembles every use case over one store (`Engine.init`);
    /// called by the composition root only (`FitCircleNode`). The access-token key is `signingKey` when the
    /// operator set one, else a random secret created once and kept in the database, so all nodes and
    /// restarts share it.
    public static func make(
        store: Store,
        profile: RuleProfile,
        auth: AuthConfiguration,
        jwks: [IdentityProvider: any JWKSSource],
        blobs: any BlobStore,
        clock: WallClock,
        signingKey: Data? = nil,
        transports: Transports = Transports()
    ) async throws -> Engine {
        let secret: Data
        if let signingKey {
            guard signingKey.count >= 32 else { throw SigningKeyTooShort(length: signingKey.count) }
            secret = signingKey
        } else {
            let stored = try await store.transaction { tx in
                try await tx.secrets.secret(
                    named: "access-token-hmac",
                    orCreate: { Secrets.random(bytes: 48) },
                    at: clock.now()
                )
            }
            secret = Data(stored.utf8)
        }
        // Email links (unsubscribe, tracking) are signed with a key of their own, kept like the other.
        let linkSecret = try await store.transaction { tx in
            try await tx.secrets.secret(
                named: "email-link-hmac",
                orCreate: { Secrets.random(bytes: 48) },
                at: clock.now()
            )
        }
        let links = EmailLinks(secret: Data(linkSecret.utf8))
        var composer: EmailComposer?
        if let channel = transports.email {
            composer = EmailComposer(
                templates: try await EmailComposer.bundledTemplates(),
                settings: channel.settings,
                links: links
            )
        }
        let verifiers = jwks.map { provider, source in
            IdentityTokenVerifier(
                provider: provider,
                clientIDs: provider == .google ? auth.googleClientIDs : auth.appleClientIDs,
                webClientID: provider == .google ? auth.googleWebClientID : auth.appleWebClientID,
                keys: source,
                clock: clock
            )
        }
        let ids = IDGenerator(clock: clock)
        let webhooks = WebhookFanout(ids: ids)
        let context = EngineContext(
            store: store,
            rules: Rules(base: profile),
            clock: clock,
            ids: ids,
            analytics: EventRecorder(forward: transports.analytics != nil, webhooks: webhooks),
            boards: BoardEvents(indexes: BoardIndexes())
        )
        return try await Engine(
            context: context,
            auth: auth,
            verifiers: verifiers,
            accessTokenSecret: secret,
            links: links,
            composer: composer,
            blobs: blobs,
            transports: transports,
            webhooks: webhooks
        )
    }
}

/// The configured access-token signing key is too short to be safe.
public struct SigningKeyTooShort: Error, CustomStringConvertible {
    public var length: Int
    public var description: String { "auth.signingKey must be at least 32 bytes; it has \(self.length)" }
}
