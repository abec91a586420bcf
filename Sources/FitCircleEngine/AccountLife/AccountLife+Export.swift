public import FitCircleCore
public import FitCircleStore
public import Foundation

extension AccountLife {
    /// Everything FitCircle holds about `user` (`ExportSection.all`) as JSON lines, read a page at a time as
    /// the client takes them: a slow download holds one page in memory and no connection between pages.
    public func export(of user: User.ID) -> AccountExport {
        AccountExport(store: self.store, user: user, exportedAt: self.clock.now())
    }
}

/// The lines of an account's export, in chunks of a page of rows: a header naming the export, a line per
/// row, and a last line that says it is whole.
public struct AccountExport: AsyncSequence, Sendable {
    public typealias Element = ArraySlice<UInt8>
    /// Rows per read.
    static let page = 500

    let store: Store
    let user: User.ID
    let exportedAt: Date

    public func makeAsyncIterator() -> Iterator {
        Iterator(export: self)
    }

    public struct Iterator: AsyncIteratorProtocol {
        let export: AccountExport
        var started = false
        var finished = false
        var section = 0
        var columns: ExportColumns?
        var after: [ExportValue]?
        var rows = 0

        public mutating func next() async throws -> ArraySlice<UInt8>? {
            guard !self.finished else { return nil }
            guard self.started else {
                self.started = true
                return try Self.line([
                    "export": "fitcircle", "version": 1, "userId": self.export.user.rawValue,
                    "exportedAt": ExportJSON.instant(self.export.exportedAt), "sections": ExportSection.all.map(\.name),
                ])
            }
            while self.section < ExportSection.all.count {
                let section = ExportSection.all[self.section]
                let (user, after, known) = (self.export.user, self.after, self.columns)
                let (columns, rows) = try await self.export.store.read { tx -> (ExportColumns, [ExportRow]) in
                    let columns = if let known { known } else { try await tx.accounts.columns(of: section) }
                    return (
                        columns,
                        try await tx.accounts.exportRows(
                            section,
                            columns: columns,
                            of: user,
                            after: after,
                            limit: AccountExport.page
                        )
                    )
                }
                self.columns = columns
                guard let last = rows.last else {
                    (self.section, self.columns, self.after) = (self.section + 1, nil, nil)
                    continue
                }
                self.after = section.key.map { key in last.first { $0.column == key }?.value ?? .null }
                if rows.count < AccountExport.page {
                    // A short page is the section's last: no read to learn that nothing follows.
                    (self.section, self.columns, self.after) = (self.section + 1, nil, nil)
                }
                self.rows += rows.count
                var chunk: [UInt8] = []
                for row in rows { chunk += try Self.line(["section": section.name, "row": ExportJSON.object(row)]) }
                return chunk[...]
            }
            self.finished = true
            return try Self.line(["end": true, "rows": self.rows])
        }

        static func line(_ object: [String: Any]) throws -> ArraySlice<UInt8> {
            var bytes = [UInt8](
                try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
            )
            bytes.append(UInt8(ascii: "\n"))
            return bytes[...]
        }
    }
}

/// How stored values read in the export: camelCase field names, ISO 8601 instants, embedded documents.
enum ExportJSON {
    static func object(_ row: ExportRow) -> [String: Any] {
        var object: [String: Any] = [:]
        for (column, value) in row { object[Self.camelCase(column)] = Self.value(value) }
        return object
    }

    static func value(_ value: ExportValue) -> Any {
        switch value {
        case .null: NSNull()
        case .bool(let value): value
        case .int(let value): value
        // Every stored double is finite (input validation refuses the rest); should one not be, it is
        // written as null rather than failing the export.
        case .double(let value): value.isFinite ? value : NSNull()
        case .text(let value): value
        case .instant(let value): Self.instant(value)
        case .json(let text):
            (try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])) ?? text
        }
    }

    static func instant(_ date: Date) -> String {
        Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(date)
    }

    static func camelCase(_ column: String) -> String {
        let words = column.split(separator: "_")
        return (words.first.map(String.init) ?? "")
            + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }
}
