extension Migrations {
    static let v035 = Migration(
        version: 35,
        name: "the console's delivery log",
        statements: [
            // Attempts of one outcome (the permanent failures an operator looks for), latest first: ids are
            // time-ordered (UUIDv7), so the primary key already orders them all.
            .init("CREATE INDEX delivery_attempts_outcome ON delivery_attempts (outcome, id)")
        ]
    )
}
