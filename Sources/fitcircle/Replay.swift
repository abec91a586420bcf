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
        let profile = try configuration.rules.load()
        let (differences, habits, rewards, escrow, records) = try await runtime.withStore { store in
            try await store.checkSchemaVersion()
            // Progress on standard error, the report on standard output.
            let replay = Replay(store: store, profile: profile, clock: runtime.clock) { line in
                FileHandle.standardError.write(Data("\(line)\n".utf8))
            }
            return (
                try await replay.run(fix: self.fix), try await replay.sendHabitDifferences(fix: self.fix),
                try await replay.rewardDifferences(),
                try await replay.escrowDifferences(), try await replay.challengeRecordDifferences(fix: self.fix)
            )
        }
        for difference in differences {
            print(difference)
        }
        print(
            "\(differences.count) difference(s) in daily tracking\(self.fix && !differences.isEmpty ? ", fixed" : "")"
        )
        for difference in habits {
            print(difference)
        }
        print("\(habits.count) difference(s) in habitual times\(self.fix && !habits.isEmpty ? ", fixed" : "")")
        for difference in rewards {
            print(difference)
        }
        print(
            "\(rewards.count) difference(s) in points, levels and badges (the ledger is append-only: reported, never fixed)"
        )
        for difference in escrow {
            print(difference)
        }
        print("\(escrow.count) difference(s) in challenge escrow (reported, never fixed)")
        for difference in records {
            print(difference)
        }
        print(
            "\(records.count) difference(s) in challenge records and rivalries\(self.fix && !records.isEmpty ? ", fixed" : "")"
        )
        if ((!differences.isEmpty || !habits.isEmpty || !records.isEmpty) && !self.fix) || !rewards.isEmpty
            || !escrow.isEmpty
        {
            throw ExitCode(1)
        }
    }
}
