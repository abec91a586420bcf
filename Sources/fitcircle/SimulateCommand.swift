import ArgumentParser
import FitCircleCore
import FitCircleEngine
import FitCircleServer
import FitCircleStore
import Foundation

struct SimulateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract:
            "Replay the recorded history under a candidate rule profile, writing nothing, and say what would have changed.",
        discussion: """
            fitcircle simulate --profile candidate.yaml [--actual fitcircle] [--from 2026-09-01 --to 2026-11-30]
            Both the candidate and the app's own profile (--actual, else FITCIRCLE_PROFILE, else fitcircle) replay \
            each person's days the same way: streak periods kept, frozen and lost, milestones, step goals met and \
            their points, scheduled notifications; then the people whose streak only one of them kept.
            """
    )

    @OptionGroup var options: GlobalOptions

    @Option(help: "The app's own profile, from the profiles directory (default: FITCIRCLE_PROFILE, else fitcircle).")
    var actual: String?

    @Option(help: "First day (YYYY-MM-DD); default 90 days before --to.")
    var from: String?

    @Option(help: "Last day (YYYY-MM-DD); default yesterday (UTC).")
    var to: String?

    func run() async throws {
        guard let path = self.options.profile, path.hasSuffix(".yaml") || path.hasSuffix(".yml") else {
            throw ValidationError("--profile must name the candidate profile's file, such as --profile candidate.yaml")
        }
        var options = self.options
        options.profile = self.actual
        let runtime = try await Runtime(options: options)
        let configuration = runtime.configuration
        let actual = try configuration.rules.load()
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8)
        else {
            throw ValidationError("cannot read \(path)")
        }
        let candidate = try RuleProfileLoader.parse(text, file: path)
        func day(_ text: String?, _ name: String) throws -> LocalDate? {
            guard let text else { return nil }
            guard let date = LocalDate(iso: text) else {
                throw ValidationError("--\(name) must be a date such as 2026-11-01")
            }
            return date
        }
        let (from, to) = (try day(self.from, "from"), try day(self.to, "to"))
        try await runtime.withStore { store in
            try await store.checkSchemaVersion()
            let report = try await Simulation(store: store, actual: actual, clock: runtime.clock).run(
                candidate: candidate,
                from: from,
                to: to
            ) { done, total in
                if done % 100 == 0 || done == total { print("replayed \(done)/\(total) people") }
            }
            // Operators read this: people by their email, not their id.
            let accounts = try await store.read { tx in
                try await tx.users.all(report.keptOnlyByCandidate + report.keptOnlyByActual)
            }
            print(
                Self.describe(report, actual: actual.name, candidate: candidate.name) {
                    accounts[$0]?.email ?? $0.rawValue
                }
            )
        }
    }

    static func describe(_ report: Simulation.Report, actual: String, candidate: String, name: (User.ID) -> String)
        -> String
    {
        let rows: [(String, KeyPath<Simulation.Outcome, Int>)] = [
            ("streak periods kept", \.periodsKept), ("freezes used", \.freezesUsed), ("streaks lost", \.streaksLost),
            ("milestones reached", \.milestonesReached), ("longest streak", \.longestStreak),
            ("streaks at the end (sum)", \.currentStreaks),
            ("step goals", \.stepGoals), ("step goals met", \.stepGoalsMet), ("points for goals met", \.goalPoints),
            ("scheduled notifications", \.scheduledNotifications),
        ]
        var lines = [
            "What-if from \(report.from.iso) to \(report.to.iso), \(report.people) people: \(actual) (actual) against \(candidate) (candidate)"
        ]
        let width = rows.map(\.0.count).max() ?? 0
        for (name, path) in rows {
            let (a, c) = (report.actual[keyPath: path], report.candidate[keyPath: path])
            let change = c - a
            lines.append(
                "  \(name.padding(toLength: width, withPad: " ", startingAt: 0))  \(a) → \(c)  (\(change >= 0 ? "+" : "")\(change))"
            )
        }
        lines.append(
            "Streaks the actual profile lost that the candidate would have kept: \(report.keptOnlyByCandidate.count)"
                + (report.keptOnlyByCandidate.isEmpty
                    ? "" : " (\(report.keptOnlyByCandidate.prefix(20).map(name).joined(separator: ", ")))")
        )
        lines.append(
            "Streaks the candidate would have lost that the actual profile kept: \(report.keptOnlyByActual.count)"
                + (report.keptOnlyByActual.isEmpty
                    ? "" : " (\(report.keptOnlyByActual.prefix(20).map(name).joined(separator: ", ")))")
        )
        return lines.joined(separator: "\n")
    }
}
