import FitCircleCore
import FitCircleStore
import FitCircleTesting
import Foundation
import Testing

/// A page's keyset compares instants as the database holds them (`Transaction.keyset`): a `Date` bound
/// after a cursor's round trip would land 1 µs short on PostgreSQL for about a quarter of instants, and
/// short of the stored double on SQLite (whose reads round to the microsecond), skipping the rows of the
/// same instant; these instants are among them on both.
struct InstantKeyPagingTests {
    static let instants: [Int64] = [1_795_000_676_331_422, 1_795_000_630_699_660, 1_795_000_485_151_261]

    @Test(arguments: Backend.available)
    func aPageFollowsTheLastOneExactlyWhateverItsInstant(_ backend: Backend) async throws {
        try await withStore(backend) { store async throws in
            let me = User.ID("me")
            let blocked = ["a", "b", "c", "d", "e", "f"].map(User.ID.init)
            try await store.transaction { tx in
                for (index, id) in ["me", "a", "b", "c", "d", "e", "f"].enumerated() {
                    let user = User(
                        id: User.ID(id),
                        email: "\(id)@example.com",
                        profile: UserProfile(displayName: id, timeZone: "UTC"),
                        createdAt: .t0
                    )
                    try await tx.users.insert(user, provider: "dev", subject: id)
                    guard index > 0 else { continue }
                    // Two at each instant: the second of a pair comes after the first on the same instant.
                    let microseconds = Self.instants[(index - 1) / 2]
                    let at = Date(timeIntervalSince1970: Double(microseconds) / 1_000_000)
                    try await tx.friends.block(User.ID(id), by: me, at: at)
                }
            }
            var (read, key): ([User.ID], InstantKey?) = ([], nil)
            repeat {
                let after = key
                let page = try await store.read { tx in
                    try await tx.friends.blockedPeople(of: me, after: after, limit: 1)
                }
                read += page.map(\.userID)
                // As a cursor carries it: the seconds written out and read back.
                key = page.last.map {
                    InstantKey(
                        at: Date(timeIntervalSince1970: Double("\($0.since.timeIntervalSince1970)") ?? 0),
                        id: $0.userID.rawValue
                    )
                }
            } while key != nil && read.count < 20
            #expect(read.count == blocked.count && Set(read) == Set(blocked), "each once: \(read.map(\.rawValue))")
        }
    }
}
