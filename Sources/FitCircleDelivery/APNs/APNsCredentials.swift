/// What token-based APNs needs: the `.p8` signing key Apple issued, its key id, the team it belongs to,
/// and the app's bundle id (the `apns-topic`).
public struct APNsCredentials: Equatable, Sendable {
    /// PEM, PKCS #8 (`-----BEGIN PRIVATE KEY-----`), as in the `.p8` file.
    public var privateKey: String
    public var keyID: String
    public var teamID: String
    public var topic: String

    public init(privateKey: String, keyID: String, teamID: String, topic: String) {
        self.privateKey = privateKey
        self.keyID = keyID
        self.teamID = teamID
        self.topic = topic
    }
}
