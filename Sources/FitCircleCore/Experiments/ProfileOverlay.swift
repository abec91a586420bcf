public import Foundation

/// What an experiment variant changes of the app's rule profile: a JSON merge patch (RFC 7386) over the
/// profile's own keys, limited to the rules that may differ from one person to the next — streak freezes
/// and grace, goal targets, notification budgets and each type's timing and copy. What must be the same
/// for everyone (the streak's basis and period, points, the week, events, challenges) cannot be overlaid.
/// Notification types are addressed by name: `notifications.types.daily_reminder.at: "19:30"`.
public struct ProfileOverlay: Equatable, Sendable, Codable {
    public var tree: JSONTree

    /// No change: a control variant.
    public static let none = ProfileOverlay(checked: .object([:]))

    /// What may be overlaid, by section; `nil`: every key of the section.
    static let allowed: [String: Set<String>?] = [
        "streaks": ["freezes", "resetAfterMissed", "shortfallKeepsStreak", "milestones", "checkInGraceDays"],
        "goals": nil,
        "notifications": ["nonCriticalPerDay", "nonCriticalPerWeek", "types"],
    ]
    /// What a notification type's overlay may not change: which type it is and whether it is critical.
    static let fixedTypeKeys: Set<String> = ["type", "critical"]

    private init(checked tree: JSONTree) {
        self.tree = tree
    }

    /// Checks that `tree` only touches what may differ per person; violations name `field` and the key.
    public init(_ tree: JSONTree, field: String) throws {
        guard let sections = tree.members else { throw ValidationError(field: field, reason: "must be an object") }
        var violations: [FieldViolation] = []
        for (section, value) in sections.sorted(by: { $0.key < $1.key }) {
            guard let keys = Self.allowed[section] else {
                violations.append(
                    .init(
                        field: "\(field).\(section)",
                        reason: "cannot differ per person; overlay streaks, goals or notifications"
                    )
                )
                continue
            }
            guard let members = value.members else {
                violations.append(.init(field: "\(field).\(section)", reason: "must be an object"))
                continue
            }
            if let keys {
                for key in members.keys.sorted() where !keys.contains(key) {
                    violations.append(
                        .init(
                            field: "\(field).\(section).\(key)",
                            reason: "cannot differ per person; may overlay \(keys.sorted().joined(separator: ", "))"
                        )
                    )
                }
            }
            if section == "notifications", let types = members["types"] {
                guard let byName = types.members else {
                    violations.append(
                        .init(
                            field: "\(field).notifications.types",
                            reason: "must be an object keyed by notification type"
                        )
                    )
                    continue
                }
                for (name, change) in byName.sorted(by: { $0.key < $1.key }) {
                    guard let changes = change.members else {
                        violations.append(
                            .init(field: "\(field).notifications.types.\(name)", reason: "must be an object")
                        )
                        continue
                    }
                    for key in changes.keys.sorted() where Self.fixedTypeKeys.contains(key) {
                        violations.append(
                            .init(
                                field: "\(field).notifications.types.\(name).\(key)",
                                reason: "cannot differ per person"
                            )
                        )
                    }
                }
            }
        }
        guard violations.isEmpty else { throw ValidationError(violations) }
        self.tree = tree
    }

    public init(from decoder: any Decoder) throws {
        self.init(checked: try JSONTree(from: decoder))
    }

    public func encode(to encoder: any Encoder) throws {
        try self.tree.encode(to: encoder)
    }

    public var isEmpty: Bool { self.tree.members?.isEmpty ?? true }

    /// `profile` with this overlay merged on. Throws `ValidationError` naming `field` when a type it names
    /// is not in the profile or the result is not a profile.
    public func applied(to profile: RuleProfile, field: String) throws -> RuleProfile {
        guard !self.isEmpty else { return profile }
        let encoded = try JSONEncoder().encode(profile)
        var base = try JSONDecoder().decode(JSONTree.self, from: encoded)
        var patch = self.tree.members ?? [:]
        // Types are a list in the profile and a map by name in the overlay: merge each onto its own.
        if var notifications = patch["notifications"]?.members, let byName = notifications["types"]?.members,
            case .array(let types)? = base.members?["notifications"]?.members?["types"]
        {
            let known = Set(
                types.compactMap { type -> String? in
                    if case .string(let name)? = type.members?["type"] { name } else { nil }
                }
            )
            if let unknown = byName.keys.sorted().first(where: { !known.contains($0) }) {
                throw ValidationError(
                    field: "\(field).notifications.types.\(unknown)",
                    reason: "is not a notification type of this app"
                )
            }
            let merged = types.map { type -> JSONTree in
                guard case .string(let name)? = type.members?["type"], let change = byName[name] else { return type }
                return type.merging(change)
            }
            notifications["types"] = nil
            patch["notifications"] = .object(notifications)
            base = base.merging(.object(["notifications": .object(["types": .array(merged)])]))
        }
        let tree = base.merging(.object(patch))
        do {
            return try JSONDecoder().decode(RuleProfile.self, from: try JSONEncoder().encode(tree))
        } catch let error as DecodingError {
            throw ValidationError(field: field, reason: "does not make a valid rule profile: \(Self.describe(error))")
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().trimmingCharacters(
                in: CharacterSet(charactersIn: ".")
            )
        }
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return "\(path(context.codingPath)): \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])) is missing"
        @unknown default:
            return "\(error)"
        }
    }
}
