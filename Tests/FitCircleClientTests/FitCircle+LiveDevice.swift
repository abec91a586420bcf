import FitCircleClient
import FitCircleTesting
import Foundation

extension FitCircle {
    /// A device of a person who signed in on `server` and finished onboarding, keeping its outbox in a fresh
    /// directory.
    static func device(
        on server: ServerProcess,
        email: String,
        storage: URL = FileManager.default.temporaryDirectory.appendingPathComponent("sdk-\(UUID().uuidString)"),
        policy: SyncPolicy = SyncPolicy(),
        refreshMargin: TimeInterval = 60,
        signIn: Bool = true
    ) async throws -> FitCircle {
        let device = try await FitCircle(
            .init(
                baseURL: server.url,
                storageDirectory: storage,
                sessionStore: FileSessionStore(url: storage.appendingPathComponent("session.json")),
                syncPolicy: policy,
                refreshMargin: refreshMargin,
                timeZone: { TimeZone(identifier: "Europe/Paris")! }
            )
        )
        if signIn {
            try await device.signInForDevelopment(email: email)
            _ = try await device.call {
                try await $0.updateProfile(
                    body: .json(
                        .init(
                            displayName: "Ana",
                            age: 34,
                            weight: .init(value: 62, unit: .kg),
                            timeZone: "Europe/Paris"
                        )
                    )
                ).ok
            }
        }
        return device
    }

    /// Every activity the server holds for the person, all pages.
    func allActivities() async throws -> [Components.Schemas.Activity] {
        var (items, cursor) = ([Components.Schemas.Activity](), String?.none)
        repeat {
            let page = try await self.call {
                try await $0.listActivities(query: .init(cursor: cursor, limit: 200)).ok.body.json
            }
            items += page.items
            cursor = page.nextCursor
        } while cursor != nil
        return items
    }
}
