import FitCircleStore
import Testing

struct DatabaseLocationTests {
    @Test func anSQLiteURLNeedsAnAbsolutePath() throws {
        #expect(
            try DatabaseLocation(url: "sqlite:///var/lib/fitcircle/db.sqlite")
                == .sqlite(path: "/var/lib/fitcircle/db.sqlite")
        )
        #expect(throws: DatabaseLocation.InvalidURL.self) { try DatabaseLocation(url: "sqlite://relative.sqlite") }
    }

    @Test func aPostgresURLGivesEveryPart() throws {
        let location = try DatabaseLocation(
            url: "postgres://fit:s3cret@db.internal:6543/fitcircle?sslmode=require&schema=app"
        )
        #expect(
            location
                == .postgres(
                    .init(
                        host: "db.internal",
                        port: 6543,
                        username: "fit",
                        password: "s3cret",
                        database: "fitcircle",
                        tls: .require,
                        schema: "app"
                    )
                )
        )
        #expect(location.description == "postgres://fit@db.internal:6543/fitcircle")
    }

    @Test func otherSchemesAreRefused() {
        #expect(throws: DatabaseLocation.InvalidURL.self) { try DatabaseLocation(url: "mysql://localhost/db") }
        #expect(throws: DatabaseLocation.InvalidURL.self) {
            try DatabaseLocation(url: "postgres://localhost/db?sslmode=maybe")
        }
    }
}
