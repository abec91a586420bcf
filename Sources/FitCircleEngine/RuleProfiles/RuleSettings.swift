public import Configuration
public import FitCircleCore
public import Foundation

/// Which rule profile the server plays by, and where profiles are (`profile`, `profiles.directory`).
public struct RuleSettings: Sendable {
    public var profileName: String
    public var directory: URL

    public init(profileName: String = "fitcircle", directory: URL) {
        self.profileName = profileName
        self.directory = directory
    }

    /// - `profile` (default `fitcircle`), `profiles.directory` (default `./profiles`)
    public init(reader: ConfigReader, workingDirectory: URL) {
        self.init(
            profileName: reader.string(forKey: "profile", default: "fitcircle"),
            directory: URL(
                fileURLWithPath: reader.string(forKey: "profiles.directory", default: "profiles"),
                relativeTo: workingDirectory
            )
        )
    }

    /// The profile these settings name, checked.
    public func load() throws -> RuleProfile {
        try RuleProfileLoader.load(named: self.profileName, from: self.directory)
    }
}
