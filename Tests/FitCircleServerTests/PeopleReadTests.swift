import FitCircleTesting
import Foundation
import Testing

/// Several people in one read (issue 46, item 7): each as the caller may see them — the same fields their
/// audiences allow as one read of each, no statistics — in the order asked, leaving out whoever blocked the
/// caller and ids that name nobody.
struct PeopleReadTests {
    @Test(arguments: Backend.available)
    func severalPeopleAreReadAsEachMayBeSeen(_ backend: Backend) async throws {
        try await withTestApp(backend) { app in
            let ana = try await app.person(named: "Ana")
            let bo = try await app.person(named: "Bo")
            let cy = try await app.person(named: "Cy")
            let dee = try await app.person(named: "Dee")
            try await app.befriend(ana, bo)
            #expect(try await app.friendAction("/api/friends/blocks", by: dee, to: ana).status == .noContent)

            let query = [cy.id, bo.id, dee.id, "0190aaaa-0000-7000-8000-000000000000", bo.id, "not an id"]
                .map { "ids=\($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }
                .joined(separator: "&")
            let answer = try await app.request(.get, "/api/users?\(query)", token: try await ana.token(app))
            #expect(answer.status == .ok, "\(answer.text)")
            let items = try answer.jsonObject()["items"] as? [[String: Any]] ?? []
            #expect(items.compactMap { $0["userId"] as? String } == [cy.id, bo.id], "\(answer.text)")
            #expect(items.allSatisfy { $0["statistics"] == nil })
            #expect(
                items.last?["friendship"] as? String == "friends" && items.first?["friendship"] as? String == "none"
            )

            // Each entry is what one read of that person shows, statistics aside.
            for item in items {
                let id = try #require(item["userId"] as? String)
                var one = try await app.request(.get, "/api/users/\(id)", token: try await ana.token(app)).jsonObject()
                one["statistics"] = nil
                #expect(NSDictionary(dictionary: one) == NSDictionary(dictionary: item), "\(id)")
            }

            for bad in ["", "ids=" + Array(repeating: bo.id, count: 101).joined(separator: "&ids=")] {
                let refused = try await app.request(.get, "/api/users?\(bad)", token: try await ana.token(app))
                #expect([400, 422].contains(refused.status.code), "\(refused.text)")
                #expect(refused.text.contains("ids"), "\(refused.text)")
            }
        }
    }
}
