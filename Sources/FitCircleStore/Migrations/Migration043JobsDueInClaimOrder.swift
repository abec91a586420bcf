extension Migrations {
    static let v043 = Migration(
        version: 43,
        name: "jobs due in claim order",
        statements: [
            // A claim takes the earliest due jobs of the runner's kinds by (run_at, id): with the id and the kind in
            // the index, it reads them in that order and stops at its limit, without sorting every job due at
            // the same instant (ten thousand settlements due at one minute) or reading other kinds' rows.
            .init("CREATE INDEX jobs_due_in_order ON jobs (status, run_at, id, kind)"),
            .init("DROP INDEX jobs_due"),
        ]
    )
}
