/// The schema, in order. Column types are chosen to mean the same on both databases: `TIMESTAMPTZ` holds
/// instants (seconds since 1970 on SQLite), `TEXT` holds ids, enums and ISO local dates (`2026-11-22`).
///
/// Each step is a file of its own in `Migrations/` (`Migration042WhatItDoes.swift`, declaring `v042`), listed
/// here in order; `MigrationListTests` checks that the files and the list agree. Never edit a released step.
enum Migrations {
    static let all: [Migration] = [
        Self.v001, Self.v002, Self.v003, Self.v004, Self.v005, Self.v006, Self.v007, Self.v008, Self.v009, Self.v010,
        Self.v011, Self.v012, Self.v013, Self.v014, Self.v015, Self.v016, Self.v017, Self.v018, Self.v019, Self.v020,
        Self.v021, Self.v022, Self.v023, Self.v024, Self.v025, Self.v026, Self.v027, Self.v028, Self.v029, Self.v030,
        Self.v031, Self.v032, Self.v033, Self.v034, Self.v035, Self.v036, Self.v037, Self.v038, Self.v039, Self.v040,
        Self.v041, Self.v042, Self.v043, Self.v044, Self.v045, Self.v046,
    ]

    static var latestVersion: Int { Self.all.last?.version ?? 0 }
}
