extension Migrations {
    static let v028 = Migration(
        version: 28,
        name: "challenge template usage",
        statements: [
            // Spec 002 §1's popularity: how many challenges each template made, counted as they are made.
            .init("CREATE TABLE challenge_template_uses (template_id TEXT PRIMARY KEY, uses INTEGER NOT NULL)")
        ]
    )
}
