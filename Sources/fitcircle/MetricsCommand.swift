import ArgumentParser
import FitCircleCore
import FitCircleEngine
import FitCircleServer
import FitCircleStore
import Foundation

struct MetricsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "metrics",
        abstract:
            "Roll up the operators' metrics for a range of local days (a backfill; the daily job does yesterday).",
        discussion: "Each day is computed from the analytics events and derived tables and replaces its stored rows."
    )

    @OptionGroup var options: GlobalOptions

    @Option(help: "First day (YYYY-MM-DD); default 30 days before --to.")
    var from: String?

    @Option(help: "Last day (YYYY-MM-DD); default yesterday (UTC).")
    var to: String?

    func run() async throws {
        let runtime = try await Runtime(options: self.options)
        let configuration = runtime.configuration
        let profile = try configuration.rules.load()
        func day(_ text: String?, _ name: String) throws -> LocalDate? {
            guard let text else { return nil }
            guard let date = LocalDate(iso: text) else {
                throw ValidationError("--\(name) must be a date such as 2026-11-01")
            }
            return date
        }
        let last = try day(self.to, "to") ?? LocalDate(runtime.clock.now(), in: .gmt).adding(days: -1)
        let first = try day(self.from, "from") ?? last.adding(days: -29)
        guard first <= last else { throw ValidationError("--from must not be after --to") }
        try await runtime.withStore { store in
            try await store.checkSchemaVersion()
            try await Metrics(store: store, profile: profile, clock: runtime.clock).rollUp(from: first, to: last) {
                day,
                done,
                total in
                print("rolled up \(day.iso) (\(done)/\(total))")
            }
        }
    }
}
