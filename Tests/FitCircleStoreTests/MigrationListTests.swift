import Foundation
import Testing

@testable import FitCircleStore

/// Each migration is a file of its own (`Sources/FitCircleStore/Migrations/Migration007WhatItDoes.swift`,
/// declaring `v007`) and `Migrations.all` lists them: the two must agree, in order, with no gap.
struct MigrationListTests {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/FitCircleStore/Migrations")

    @Test func theListRunsFromOneWithoutAGap() {
        #expect(Migrations.all.map(\.version) == Array(1...Migrations.all.count))
        #expect(Set(Migrations.all.map(\.name)).count == Migrations.all.count, "every step has a name of its own")
    }

    @Test func everyFileIsListedAndDeclaresTheStepItsNameNumbers() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter {
            $0.hasSuffix(".swift")
        }.sorted()
        #expect(files.count == Migrations.all.count, "a file per migration, and nothing else in the folder")
        for (file, migration) in zip(files, Migrations.all) {
            let number = String(format: "%03d", migration.version)
            #expect(file.hasPrefix("Migration\(number)"), "\(file) is step \(migration.version)")
            let text = try String(contentsOf: Self.folder.appendingPathComponent(file), encoding: .utf8)
            #expect(text.contains("static let v\(number) = Migration("), "\(file) declares v\(number)")
            #expect(text.contains("version: \(migration.version),"), "\(file) is version \(migration.version)")
        }
    }
}
