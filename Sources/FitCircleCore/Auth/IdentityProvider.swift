/// The sign-in providers FitCircle accepts ID tokens from.
public enum IdentityProvider: String, CaseIterable, Equatable, Sendable, Codable {
    case google
    case apple

    /// The `iss` values this provider signs with.
    public var issuers: Set<String> {
        switch self {
        case .google: ["accounts.google.com", "https://accounts.google.com"]
        case .apple: ["https://appleid.apple.com"]
        }
    }
}
