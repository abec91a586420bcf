import ArgumentParser

@main
struct FitCircleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fitcircle",
        abstract: "FitCircle: a self-hostable engagement engine for social fitness apps.",
        subcommands: [
            Serve.self, Migrate.self, ReplayCommand.self, OperatorCommand.self, MetricsCommand.self,
            SimulateCommand.self, ServiceKeyCommand.self,
        ],
        defaultSubcommand: Serve.self
    )
}
