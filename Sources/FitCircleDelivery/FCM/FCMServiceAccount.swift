public import Foundation

/// The parts of a Google service-account key file (JSON) that FCM HTTP v1 needs.
public struct FCMServiceAccount: Equatable, Sendable, Decodable {
    public var projectID: String
    public var clientEmail: String
    /// PEM, PKCS #8 (`-----BEGIN PRIVATE KEY-----`).
    public var privateKey: String
    /// Where the signed assertion is exchanged for an access token.
    public var tokenURI: String

    enum CodingKeys: String, CodingKey {
        case projectID = "project_id"
        case clientEmail = "client_email"
        case privateKey = "private_key"
        case tokenURI = "token_uri"
    }

    public init(projectID: String, clientEmail: String, privateKey: String, tokenURI: String) {
        self.projectID = projectID
        self.clientEmail = clientEmail
        self.privateKey = privateKey
        self.tokenURI = tokenURI
    }

    /// Reads a key file as Google hands it out.
    public init(json: Data) throws {
        self = try JSONDecoder().decode(Self.self, from: json)
    }
}
