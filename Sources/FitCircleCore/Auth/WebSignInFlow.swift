public import Foundation

/// Google's and Apple's sign-in on the web (OpenID Connect, implicit flow with `form_post`): the browser
/// is sent to the provider with a `state` and a `nonce` kept in a cookie of its own; the provider posts the
/// ID token back; the server checks the state against the cookie (the answer is to this browser's request)
/// and the token's nonce against the cookie's (the token was issued for it), then signs in as the API does.
public enum WebSignInFlow {
    /// How long a started sign-in may take at the provider.
    public static let lifetime: TimeInterval = 600

    /// The provider's authorization request.
    public static func authorizationURL(
        for provider: IdentityProvider,
        clientID: String,
        redirectURI: String,
        state: String,
        nonce: String
    ) -> String {
        let (responseType, scope) =
            switch provider {
            case .google: ("id_token", "openid email profile")
            case .apple: ("code id_token", "name email")
            }
        var components = URLComponents()
        components.scheme = "https"
        (components.host, components.path) = Self.location(of: provider)
        components.queryItems = [
            URLQueryItem(name: "client_id", value: clientID), URLQueryItem(name: "redirect_uri", value: redirectURI),
            URLQueryItem(name: "response_type", value: responseType),
            URLQueryItem(name: "response_mode", value: "form_post"),
            URLQueryItem(name: "scope", value: scope), URLQueryItem(name: "state", value: state),
            URLQueryItem(name: "nonce", value: nonce),
        ]
        // URLComponents leaves `+` as it is, which servers read as a space.
        return (components.url?.absoluteString ?? "").replacingOccurrences(of: "+", with: "%2B")
    }

    /// The host and path of the provider's authorization endpoint.
    static func location(of provider: IdentityProvider) -> (host: String, path: String) {
        switch provider {
        case .google: ("accounts.google.com", "/o/oauth2/v2/auth")
        case .apple: ("appleid.apple.com", "/auth/authorize")
        }
    }

    /// A sign-in under way, as its cookie keeps it: which provider, the state and nonce sent, and the
    /// browser's time zone for a new account.
    public struct Pending: Equatable, Sendable {
        public var provider: IdentityProvider
        public var state: String
        public var nonce: String
        public var timeZone: String?

        public init(provider: IdentityProvider, state: String, nonce: String, timeZone: String?) {
            self.provider = provider
            self.state = state
            self.nonce = nonce
            self.timeZone = timeZone
        }

        /// The cookie's value: fields joined by `~` (none of them can hold it: hex, a provider name, an IANA zone).
        public var cookieValue: String {
            [self.provider.rawValue, self.state, self.nonce, self.timeZone ?? ""].joined(separator: "~")
        }

        public init?(cookieValue: String) {
            let parts = cookieValue.split(separator: "~", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 4, let provider = IdentityProvider(rawValue: parts[0]), parts[1].count == 64,
                parts[2].count == 64
            else { return nil }
            self.init(provider: provider, state: parts[1], nonce: parts[2], timeZone: parts[3].isEmpty ? nil : parts[3])
        }
    }
}
