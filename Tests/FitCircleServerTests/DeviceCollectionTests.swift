import FitCircleTesting
import Foundation
import Testing

/// A person's devices are a collection (issue 46, review I3): registered at `POST /api/notifications/devices`
/// (spec 000's `/register` too, deprecated), listed, at most 20 active — a 21st stops the one registered
/// longest ago, so no push fans out without bound — and another person's are neither listed nor removable.
struct DeviceCollectionTests {
    @Test(arguments: Backend.available)
    func devicesAreRegisteredListedAndBounded(_ backend: Backend) async throws {
        try await withTestApp(backend) { app in
            let ana = try await app.onboardedUser("ana@example.com")
            let bo = try await app.onboardedUser("bo@example.com")
            var made: [String] = []
            for index in 0..<21 {
                let path = index == 0 ? "/api/notifications/register" : "/api/notifications/devices"
                let answer = try await app.request(
                    .post,
                    path,
                    token: ana,
                    json: ["platform": "ios", "token": "token-\(index)"]
                )
                #expect(answer.status == .created, "\(answer.text)")
                made.append(try #require(try answer.jsonObject()["id"] as? String))
                app.clock.advance(by: 1)
            }
            let listed = try await app.request(.get, "/api/notifications/devices", token: ana).jsonObject()
            let ids = (listed["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            #expect(ids == Array(made.dropFirst().reversed()), "the latest first, the oldest stopped")

            let bos = try await app.request(.get, "/api/notifications/devices", token: bo).jsonObject()
            #expect((bos["items"] as? [Any])?.isEmpty == true)
            #expect(
                try await app.request(.delete, "/api/notifications/devices/\(made[5])", token: bo).status == .notFound
            )
            #expect(
                try await app.request(.delete, "/api/notifications/devices/\(made[5])", token: ana).status == .noContent
            )
            let after = try await app.request(.get, "/api/notifications/devices", token: ana).jsonObject()
            #expect((after["items"] as? [Any])?.count == 19)
        }
    }
}
