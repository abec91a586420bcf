/// A person's photo wherever they appear in a list: where it is stored, and who may see it
/// (`ProfileAccess.mayView(photo:_:)`).
public struct PersonPhoto: Equatable, Sendable {
    public var key: String
    public var audience: Audience

    public init(key: String, audience: Audience) {
        self.key = key
        self.audience = audience
    }
}
