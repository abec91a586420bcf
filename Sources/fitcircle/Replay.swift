import ArgumentParser
import FitCircleCore
import FitCircleEngine
import FitCircleServer
import FitCircleStore
import Foundation
import Logging

struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Rebuild every derived table from the events and report any difference from what is stored."
    )

    @OptionGroup var options: GlobalOptions

    @Flag(help: "Store the rebuilt state where it differs.")
    var fix = false

    func run() async throws {
        let runtime = try await Runtime(options: self.options)
        let configuration = runtime.configuration
        let profile = try RuleProfileLoader.load(named: configuration.profileName, from: configuration.profilesDirectory)
        let differences = try await runtime.withStore { store in
            try await store.checkSchemaVersion()
            return try await Replay(store: store, profile: profile, clock: runtime.clock).run(fix: self.fix)
        }
        for difference in differences {
            print(difference)
        }
        print("\(differences.count) difference(s)\(self.fix && !differences.isEmpty ? ", fixed" : "")")
        if !differences.isEmpty && !self.fix {
            throw ExitCode(1)
        }
    }
}
