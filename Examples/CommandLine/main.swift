// A command-line app on the Swift SDK: signs in on a development server, records activity offline, syncs,
// and prints the streak and the board.
//
//   swift run fitcircle serve --demo --dev-login            # in one terminal
//   swift run fitcircle-example http://127.0.0.1:8080 ana@example.com
import FitCircleClient
import Foundation

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 2, let server = URL(string: arguments.first!) else {
    print("usage: fitcircle-example <server URL> <email>")
    exit(64)
}
let email = arguments.last!
let storage = FileManager.default.temporaryDirectory.appendingPathComponent("fitcircle-example/\(email)")

do {
    let fitCircle = try await FitCircle(.init(baseURL: server, storageDirectory: storage))
    if await fitCircle.session == nil {
        let profile = try await fitCircle.signInForDevelopment(email: email)
        print("Signed in as \(profile.displayName)")
    }
    do {
        // A new account finishes onboarding before it records anything (spec 000: name, age, weight, zone).
        if try await !fitCircle.profile().onboardingCompleted {
            let name = String(email.prefix { $0 != "@" })
            _ = try await fitCircle.call {
                try await $0.updateProfile(
                    body: .json(
                        .init(
                            displayName: name,
                            age: 30,
                            weight: .init(value: 70, unit: .kg),
                            timeZone: TimeZone.current.identifier
                        )
                    )
                ).ok
            }
            print("Completed the profile of \(name)")
        }
    } catch FitCircleError.unreachable {
        print("Offline: what follows is kept on this device")
    }

    // Recorded on the device first: these survive the app being killed before they are sent.
    try await fitCircle.record(.appOpen(at: Date()))
    try await fitCircle.record(.steps(2_400, at: Date()))
    try await fitCircle.record(
        .workout(.running, duration: 1_800, distanceMeters: 5_000, at: Date().addingTimeInterval(-3_600))
    )
    print("Waiting to be sent: \(await fitCircle.syncStatus.pending)")

    do {
        try await fitCircle.sync()
    } catch FitCircleError.unreachable {
        let status = await fitCircle.syncStatus
        print("Offline: \(status.pending) waiting, sent at the next run that reaches the server")
        if let streak = await fitCircle.localStreak() { print("Streak on this device: 🔥 \(streak.current)") }
        exit(0)
    }
    let status = await fitCircle.syncStatus
    print("Synced: \(status.pending) waiting, \(status.rejected) refused")

    let streak = try await fitCircle.streak()
    print("Streak: 🔥 \(streak.current) (best \(streak.longest))")
    for circle in try await fitCircle.circles() {
        let board = try await fitCircle.leaderboard(circle: circle.id)
        print("\(circle.name):")
        for row in board.rows.prefix(5) {
            let rank = row.rank.map { "\($0)." } ?? "–"
            print(
                "  \(rank) \(row.displayName) \(row.value.map { "\(Int($0))" } ?? "–")\(row.isCaller ? "  ← you" : "")"
            )
        }
    }
} catch {
    print("fitcircle-example: \(error.fitCircleProblem.map { "\($0)" } ?? "\(error)")")
    exit(1)
}
