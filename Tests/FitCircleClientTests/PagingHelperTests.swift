import FitCircleTesting
import Foundation
import Testing

@testable import FitCircleClient

/// Issue 46: every list pages the same way, so one helper reads any of them to the end.
struct PagingHelperTests {
    @Test(arguments: Backend.available)
    func everyItemReadsAListToItsEndAPageAtATime(_ backend: Backend) async throws {
        try await withTestApp(backend) { app in
            try await FitCircle.withInProcessDevice(app, transport: InProcessTransport(app: app)) { device in
                let ana = try await app.person("ana@example.com")
                var sent: Set<String> = []
                for n in 0..<5 {
                    let data = ["name": "Bo", "challenge": "Walk \(n)", "challengeId": "c\(n)"]
                    let invitation = try await app.sendNotification(
                        "challenge_invitation",
                        key: "i\(n)",
                        to: ana.id,
                        data: data
                    )
                    sent.insert(invitation.id)
                }
                try await device.signInForDevelopment(email: "ana@example.com")

                let pages = PageCount()
                var read: [String] = []
                for try await item in device.everyItem(of: { cursor in
                    await pages.add()
                    return try await device.call {
                        try await $0.getNotificationInbox(query: .init(cursor: cursor, limit: 2)).ok.body.json
                    }
                }) {
                    read.append(item.id)
                }
                #expect(read.count == 5 && Set(read) == sent, "\(read)")
                #expect(await pages.count == 3)

                var inbox: [String] = []
                for try await item in device.inbox() { inbox.append(item.id) }
                #expect(inbox == read)
            }
        }
    }
}

private actor PageCount {
    var count = 0
    func add() { self.count += 1 }
}
