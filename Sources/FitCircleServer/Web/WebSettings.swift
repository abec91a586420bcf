import Foundation

/// What the web app needs to know of how browsers reach this server.
public struct WebSettings: Sendable {
    /// This server as browsers reach it (`server.publicUrl`): the sign-in providers send people back to it.
    public var publicURL: String
    /// The OAuth client of the web sign-in flows (`auth.google.webClientId`, `auth.apple.webClientId`);
    /// nil: that provider's web flow is not offered.
    public var googleClientID: String?
    public var appleClientID: String?
    /// Other origins whose web apps may call the API from a browser (`server.corsOrigins`; `*`: any).
    public var corsOrigins: Set<String>

    public init(
        publicURL: String = "",
        googleClientID: String? = nil,
        appleClientID: String? = nil,
        corsOrigins: Set<String> = []
    ) {
        self.publicURL = publicURL
        self.googleClientID = googleClientID
        self.appleClientID = appleClientID
        self.corsOrigins = corsOrigins
    }

    /// Cookies say `Secure`: the server is reached over TLS.
    public var secureCookies: Bool { self.publicURL.lowercased().hasPrefix("https://") }

    /// The web client of `provider`, when its flow can work: the providers post the answer back across
    /// sites, which only a `SameSite=None; Secure` cookie survives, so only over https.
    func webClientID(of provider: String) -> String? {
        guard self.secureCookies else { return nil }
        return switch provider {
        case "google": self.googleClientID
        case "apple": self.appleClientID
        default: nil
        }
    }
}
