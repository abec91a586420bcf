import FitCircleClient
import FitCircleCore
import FitCircleEngine
import FitCircleStore
import FitCircleTesting
import Foundation
import Testing

/// `GET /api/user/export` (spec 004, R11.7): everything held about the caller, as JSON lines, streamed a
/// page at a time.
struct AccountExportTests {
    typealias Person = TestPerson

    static func lines(_ app: TestApp, of person: Person) async throws -> [[String: Any]] {
        let response = try await app.request(.get, "/api/user/export", token: try await person.token(app))
        #expect(
            response.status == .ok && response.headers[.contentType] == "application/x-ndjson",
            "\(response.status)"
        )
        return try response.text.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
    }

    static func rows(_ lines: [[String: Any]], _ section: String) -> [[String: Any]] {
        lines.filter { $0["section"] as? String == section }.compactMap { $0["row"] as? [String: Any] }
    }

    @Test(arguments: Backend.available)
    func r11_7_theExportHoldsWhatIsMineAndNothingOfAnyoneElses(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let (ana, bo) = (try await app.person(named: "Ana"), try await app.person(named: "Bo"))
            try await app.befriend(ana, bo)
            let hers = try await app.recordWorkout("hers", by: ana, minutesAgo: 30)
            let his = try await app.recordWorkout("his", by: bo, minutesAgo: 20)
            _ = try await app.request(
                .post,
                "/api/activities/\(his)/reactions",
                token: try await ana.token(app),
                json: ["reaction": "💪"]
            )
            let lines = try await Self.lines(app, of: ana)

            let header = try #require(lines.first)
            #expect(header["export"] as? String == "fitcircle" && header["userId"] as? String == ana.id)
            #expect(header["sections"] as? [String] == ExportSection.all.map(\.name))
            let end = try #require(lines.last)
            #expect(end["end"] as? Bool == true && end["rows"] as? Int == lines.count - 2)

            let account = try #require(Self.rows(lines, "account").first)
            #expect(account["displayName"] as? String == "Ana" && account["email"] as? String == ana.email)
            let activities = Self.rows(lines, "activities")
            #expect(activities.map { $0["id"] as? String } == [hers], "only hers, not Bo's")
            // Stored documents are embedded, instants are ISO 8601.
            #expect((activities.first?["payload"] as? [String: Any])?["kind"] as? String == "workout")
            #expect((activities.first?["occurredAt"] as? String)?.hasSuffix("Z") == true)
            #expect(Self.rows(lines, "friends").map { $0["friendId"] as? String } == [bo.id])
            #expect(Self.rows(lines, "reactionsGiven").map { $0["activityId"] as? String } == [his])
            #expect(!Self.rows(lines, "sessions").isEmpty && !Self.rows(lines, "identities").isEmpty)
            // Bo's own rows are not hers: his activity appears only as what she reacted to.
            let text = lines.compactMap {
                try? String(decoding: JSONSerialization.data(withJSONObject: $0), as: UTF8.self)
            }.joined()
            #expect(!text.contains(bo.email) && !text.contains("tokenHash"))
        }
    }

    /// Five years of history is read a page at a time: the export comes as several chunks, and paging loses
    /// and repeats nothing.
    @Test(arguments: Backend.available)
    func r11_7_aLongHistoryIsStreamedInPagesWithEveryRowOnce(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let ana = try await app.person(named: "Ana")
            let token = try await ana.token(app)
            var sent: [String] = []
            for batch in 0..<3 {
                let events: [[String: Any]] = (0..<400).map { index in
                    let n = batch * 400 + index
                    sent.append("w\(n)")
                    return [
                        "clientEventId": "w\(n)", "type": "workout", "source": "app",
                        "occurredAt": iso8601(
                            app.clock.now.addingTimeInterval(-Double(n) * 3_600 * 36)
                        ),
                        "workout": ["type": "walking", "durationSeconds": 600],
                    ]
                }
                let response = try await app.request(
                    .post,
                    "/api/activities/batch",
                    token: token,
                    json: ["events": events]
                )
                #expect(response.status.code < 300, "\(response.text)")
            }
            let exported = Self.rows(try await Self.lines(app, of: ana), "activities").compactMap {
                $0["clientEventId"] as? String
            }
            #expect(exported.count == sent.count && Set(exported) == Set(sent))

            var chunks = 0
            for try await _ in app.engine.accountLife.export(of: User.ID(ana.id)) { chunks += 1 }
            #expect(chunks >= 5, "header, three pages of activities, the other sections, the end: \(chunks) chunks")
        }
    }

    /// Paging reads a row once: each section's key is exact. An instant read back is not always the value
    /// stored (SQLite's driver rounds to the microsecond), so a key holding `joined_at` read a membership
    /// again forever.
    @Test(arguments: Backend.available)
    func everySectionPagesByExactKeysAndEndsAfterAnInstantThatDoesNotRoundTrip(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            // SQLite's driver reads an instant rounded to the microsecond: this one reads back a little earlier
            // than stored (as the driver computes it, below), so paging after what was read found the row again.
            let joinedAt = app.clock.now.addingTimeInterval(0.100_000_1)
            let stored = joinedAt.timeIntervalSince1970
            let sinceReference = stored - Date.timeIntervalBetween1970AndReferenceDate
            #expect(
                Date(timeIntervalSinceReferenceDate: (sinceReference * 1e6).rounded() / 1e6).timeIntervalSince1970
                    < stored
            )
            app.clock.set(joinedAt)
            let (ana, bo) = (try await app.person("ana@example.com"), try await app.person("bo@example.com"))
            let code = try #require(
                try await app.createCircle(by: ana, ["name": "Walkers", "metric": "steps"]).joinCode
            )
            _ = try await app.api(as: bo).joinFitCircle(body: .json(.init(code: code))).ok

            // Read the way the export reads: after the last row's key, nothing is left.
            let section = try #require(ExportSection.all.first { $0.name == "circleMemberships" })
            let user = User.ID(bo.id)
            let (first, second) = try await app.store.read { tx -> ([ExportRow], [ExportRow]) in
                let columns = try await tx.accounts.columns(of: section)
                let first = try await tx.accounts.exportRows(section, columns: columns, of: user, after: nil, limit: 10)
                let last: ExportRow = first.last ?? []
                let key: [ExportValue] = section.key.map { name in last.first { $0.column == name }?.value ?? .null }
                return (
                    first, try await tx.accounts.exportRows(section, columns: columns, of: user, after: key, limit: 10)
                )
            }
            #expect(first.count == 1 && second.isEmpty, "\(first.count) rows, then \(second.count) again")
            #expect(
                Self.rows(try await Self.lines(app, of: bo), "circleMemberships").count
                    == 1
            )

            // No section pages by a column that holds an instant or a fraction.
            let columns = try await app.store.read { tx in try await tx.accounts.schemaColumns() }
            for section in ExportSection.all {
                for key in section.key {
                    let column = try #require(
                        columns.first { $0.table == section.table && $0.column == key },
                        "\(section.table).\(key)"
                    )
                    let type: String = column.type.uppercased()
                    let inexact = ["TIMESTAMP", "DOUBLE", "REAL", "FLOAT", "NUMERIC"].contains { (word: String) in
                        type.contains(word)
                    }
                    #expect(!inexact, "\(section.name) pages by \(key) (\(type))")
                }
            }
        }
    }

    /// A table that holds a person's rows belongs in the export: one added to the schema without a section
    /// (or a reason to leave it out) fails here.
    @Test(arguments: Backend.available)
    func everyTableWithAPersonsRowsIsExported(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let people: Set<String> = [
                "user_id", "owner_id", "actor_id", "sender_id", "invited_by", "from_user", "to_user", "blocker_id",
                "friend_id",
            ]
            // Secrets, machinery and derived indexes, not a person's data.
            let leftOut: Set<String> = ["refresh_tokens", "idempotency_keys", "user_search_terms"]
            let columns = try await app.store.read { tx in try await tx.accounts.schemaColumns() }
            let holding = Set(columns.filter { people.contains($0.column) }.map(\.table)).subtracting(leftOut)
            let exported = Set(ExportSection.all.map(\.table))
            #expect(holding.subtracting(exported).isEmpty, "not exported: \(holding.subtracting(exported).sorted())")
        }
    }
}
