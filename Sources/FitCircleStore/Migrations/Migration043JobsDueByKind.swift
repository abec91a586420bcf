extension Migrations {
    static let v043 = Migration(
        version: 43,
        name: "jobs due by kind",
        statements: [
            // A runner claims due jobs of the kinds it handles: by (status, run_at) alone, it read past every due
            // job of other kinds (tens of thousands of queued notifications while a settlement ran); by kind,
            // each kind's due jobs are one range.
            .init("CREATE INDEX jobs_due_by_kind ON jobs (status, kind, run_at)"),
            .init("DROP INDEX jobs_due"),
        ]
    )
}
