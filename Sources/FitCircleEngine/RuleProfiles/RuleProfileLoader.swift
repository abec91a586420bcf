public import FitCircleCore
public import Foundation
import Yams

/// Reads `profiles/<name>.yaml` and checks it; a bad file stops start-up with a message naming the file,
/// the key and what was expected.
public enum RuleProfileLoader {
    /// A profile file that cannot be used.
    public struct InvalidProfile: Error, CustomStringConvertible {
        public var file: String
        public var key: String
        public var problem: String

        public var description: String {
            "Invalid rule profile \(self.file): \(self.key.isEmpty ? "the document" : "key '\(self.key)'") \(self.problem)"
        }
    }

    /// Loads the profile called `name` from `directory`.
    public static func load(named name: String, from directory: URL) throws -> RuleProfile {
        let file = directory.appendingPathComponent("\(name).yaml")
        guard let data = FileManager.default.contents(atPath: file.path), let text = String(data: data, encoding: .utf8)
        else {
            let available =
                (try? FileManager.default.contentsOfDirectory(atPath: directory.path))?
                .filter { $0.hasSuffix(".yaml") }.map { String($0.dropLast(5)) }.sorted() ?? []
            throw InvalidProfile(
                file: file.path,
                key: "",
                problem: "cannot be read; profiles available in \(directory.path): \(available.joined(separator: ", "))"
            )
        }
        return try self.parse(text, file: file.path, expectedName: name)
    }

    /// Parses and validates the text of a profile file.
    public static func parse(_ text: String, file: String, expectedName: String? = nil) throws -> RuleProfile {
        let profile: RuleProfile
        do {
            profile = try YAMLDecoder().decode(RuleProfile.self, from: text)
        } catch let error as DecodingError {
            throw Self.describe(error, file: file)
        } catch {
            throw InvalidProfile(file: file, key: "", problem: "is not valid YAML: \(error)")
        }
        if let expectedName, profile.name != expectedName {
            throw InvalidProfile(
                file: file,
                key: "name",
                problem: "is '\(profile.name)' but the file is named \(expectedName).yaml"
            )
        }
        try Self.check(profile, file: file)
        return profile
    }

    /// The checks a profile must pass beyond its shape (a variant's overlay must pass them too).
    public static func check(_ profile: RuleProfile, file: String) throws {
        if TimeZoneID.validated(profile.onboarding.defaults.timeZone) == nil {
            throw InvalidProfile(
                file: file,
                key: "onboarding.defaults.timeZone",
                problem: "expected an IANA time-zone identifier, found '\(profile.onboarding.defaults.timeZone)'"
            )
        }
        let streaks = profile.streaks
        let checks: [(Bool, String, String)] = [
            (
                streaks.resetAfterMissed >= 1, "streaks.resetAfterMissed",
                "expected at least 1, found \(streaks.resetAfterMissed)"
            ),
            (streaks.freezes.count >= 0, "streaks.freezes.count", "expected 0 or more, found \(streaks.freezes.count)"),
            (
                (0...7).contains(streaks.checkInGraceDays), "streaks.checkInGraceDays",
                "expected 0 to 7, found \(streaks.checkInGraceDays)"
            ),
            (streaks.milestones.allSatisfy { $0.count > 0 }, "streaks.milestones", "expected positive counts"),
        ]
        for (valid, key, problem) in checks + Self.consistencyChecks(profile) + Self.templateChecks(profile)
            + Self.eventChecks(profile) where !valid
        {
            throw InvalidProfile(file: file, key: key, problem: problem)
        }
    }

    /// Each app event has a snake_case name of its own (not one the server records) and sensible properties.
    private static func eventChecks(_ profile: RuleProfile) -> [(Bool, String, String)] {
        let name = /[a-z][a-z0-9_]{0,63}/
        return profile.eventSchemas.sorted { $0.key < $1.key }.flatMap { event, schema -> [(Bool, String, String)] in
            [
                (
                    event.wholeMatch(of: name) != nil, "events.\(event)",
                    "expected a snake_case name of at most 64 characters"
                ),
                (
                    ServerEvent(rawValue: event) == nil, "events.\(event)",
                    "is recorded by the server; choose another name"
                ),
                (
                    schema.properties.keys.allSatisfy { $0.wholeMatch(of: /[A-Za-z][A-Za-z0-9_]{0,63}/) != nil }
                        && schema.properties.count <= EventInput.maximumProperties,
                    "events.\(event).properties",
                    "expected at most \(EventInput.maximumProperties) properties named with letters, digits and _"
                ),
                (
                    schema.properties.values.allSatisfy { $0.values == nil || $0.type == .string },
                    "events.\(event).properties", "expected values only for strings"
                ),
            ]
        }
    }

    /// Each challenge template makes a valid challenge (on a day of its season), under an id of its own.
    private static func templateChecks(_ profile: RuleProfile) -> [(Bool, String, String)] {
        let templates = profile.challengeTemplates
        let duplicate = Dictionary(grouping: templates.map(\.id), by: { $0 }).first { $0.value.count > 1 }?.key
        var checks: [(Bool, String, String)] = [
            (duplicate == nil, "challenges.templates", "expected unique ids, found '\(duplicate ?? "")' twice")
        ]
        for (index, template) in templates.enumerated() {
            let month = template.season?.months.first ?? 1
            let day = LocalDate(clampingYear: 2026, month: month, day: 2).start(in: .gmt)
            let input = ChallengeInput(name: nil, type: nil, template: template, durationDays: nil)
            var problem = ""
            do { _ = try input.validated(creatorZone: .gmt, now: day) } catch {
                problem = error.violations.map { "\($0.field) \($0.reason)" }.joined(separator: "; ")
            }
            checks.append(
                (
                    problem.isEmpty, "challenges.templates[\(index)]",
                    "(\(template.id)) makes no valid challenge: \(problem)"
                )
            )
            checks.append(
                (
                    template.version >= 1 && template.suggestedStake >= 0, "challenges.templates[\(index)]",
                    "expected a version from 1 and a stake from 0"
                )
            )
            checks.append(
                (
                    template.season.map {
                        !$0.months.isEmpty && $0.months.allSatisfy((1...12).contains) && $0.start != nil
                    } ?? true,
                    "challenges.templates[\(index)].season", "expected months 1 to 12 and a startsOn of MM-DD"
                )
            )
        }
        return checks
    }

    /// The rewards and notifications sections must agree with themselves, and the streak's milestones are badges.
    private static func consistencyChecks(_ profile: RuleProfile) -> [(Bool, String, String)] {
        let rewards = profile.rewards
        let ids = rewards.badges.map(\.id)
        let duplicate = Dictionary(grouping: ids, by: { $0 }).first { $0.value.count > 1 }?.key
        let tiers = rewards.pushupCap?.tiers ?? []
        var checks: [(Bool, String, String)] = [
            (
                rewards.levels.base > 0 && rewards.levels.exponent > 0, "rewards.levels",
                "expected a positive base and exponent"
            ),
            (duplicate == nil, "rewards.badges", "expected unique ids, found '\(duplicate ?? "")' twice"),
            (
                rewards.badges.allSatisfy {
                    !$0.requirement.all.isEmpty && $0.requirement.all.allSatisfy { $0.atLeast > 0 } && $0.xp >= 0
                },
                "rewards.badges", "expected each requirement to count to at least 1 and each xp to be 0 or more"
            ),
            (
                tiers.isEmpty
                    || (tiers[0].fromLevel == 1
                        && zip(tiers, tiers.dropFirst()).allSatisfy { $0.fromLevel < $1.fromLevel }),
                "rewards.pushupCap.tiers", "expected tiers from level 1 in increasing order"
            ),
            (
                rewards.weeklyChallenge.map { $0.goalDays > 0 && $0.points >= 0 } ?? true, "rewards.weeklyChallenge",
                "expected positive goalDays"
            ),
            ((rewards.workouts?.dailyMaximum ?? 0) >= 0, "rewards.workouts.dailyMaximum", "expected 0 or more"),
        ]
        let types = profile.notifications.types.map(\.type)
        let twice = Dictionary(grouping: types, by: { $0 }).first { $0.value.count > 1 }?.key
        checks.append((twice == nil, "notifications.types", "expected unique types, found '\(twice ?? "")' twice"))
        checks.append(
            (
                profile.notifications.types.allSatisfy { !$0.channels.isEmpty }, "notifications.types",
                "expected at least one channel for each type"
            )
        )
        checks.append(
            (
                profile.notifications.types.allSatisfy {
                    ($0.weekday == nil && $0.monthDay == nil) || ($0.at != nil && (1...28).contains($0.monthDay ?? 1))
                },
                "notifications.types", "expected `weekday` and `monthDay` (1–28) only on a type with a time `at`"
            )
        )
        for milestone in profile.streaks.milestones {
            let badge = rewards.badges.first { $0.name == milestone.badge }
            checks.append(
                (
                    badge?.requirement.all == [Badge.Condition(counter: .streak, atLeast: milestone.count)],
                    "rewards.badges",
                    "expected a badge named '\(milestone.badge)' with requirement { counter: streak, atLeast: \(milestone.count) } (a streak milestone)"
                )
            )
        }
        return checks
    }

    private static func describe(_ error: DecodingError, file: String) -> InvalidProfile {
        func path(_ codingPath: [any CodingKey], _ last: (any CodingKey)? = nil) -> String {
            (codingPath + (last.map { [$0] } ?? [])).map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
                .joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context):
            return InvalidProfile(file: file, key: path(context.codingPath, key), problem: "is missing")
        case .typeMismatch(let type, let context):
            return InvalidProfile(file: file, key: path(context.codingPath), problem: "expected \(Self.name(of: type))")
        case .valueNotFound(let type, let context):
            return InvalidProfile(
                file: file,
                key: path(context.codingPath),
                problem: "expected \(Self.name(of: type)), found nothing"
            )
        case .dataCorrupted(let context):
            return InvalidProfile(file: file, key: path(context.codingPath), problem: context.debugDescription)
        @unknown default:
            return InvalidProfile(file: file, key: "", problem: "\(error)")
        }
    }

    private static func name(of type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type: "an integer"
        case is Double.Type: "a number"
        case is Bool.Type: "true or false"
        default: "\(type)"
        }
    }
}
