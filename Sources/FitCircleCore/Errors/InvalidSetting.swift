/// A configuration value that cannot be used: the server refuses to start and names the key.
public struct InvalidSetting: Error, CustomStringConvertible {
    public var key: String
    public var expected: String
    public var found: String

    public init(key: String, expected: String, found: String) {
        self.key = key
        self.expected = expected
        self.found = found
    }

    public var description: String {
        "Configuration key '\(self.key)': expected \(self.expected), found '\(self.found)'"
    }
}
