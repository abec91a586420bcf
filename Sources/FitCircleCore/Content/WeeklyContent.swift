public import Foundation

/// A piece of content an app publishes for one ISO week (spec 003 §1: the weekly horoscope per sign, the
/// week's compatibility per pair), named by a key of the app's choosing. A user is told of it as "new this
/// week" while its week is the user's current week, in their own zone, and they have not seen it.
public struct WeeklyContent: Equatable, Sendable {
    public var key: String
    public var week: IsoWeek
    public var publishedAt: Date

    public init(key: String, week: IsoWeek, publishedAt: Date) {
        self.key = key
        self.week = week
        self.publishedAt = publishedAt
    }

    public static let keyLength = 1...100

    /// A key as stored: 1–100 of `a–z`, `0–9` and `. _ : -`, starting with a letter or digit
    /// ("horoscope:aries", "compatibility:aries-leo").
    public static func validatedKey(_ key: String, field: String = "key") throws(ValidationError) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789._:-".unicodeScalars)
        var validator = Validator()
        validator.check(
            Self.keyLength.contains(key.unicodeScalars.count) && key.unicodeScalars.allSatisfy(allowed.contains)
                && key.unicodeScalars.first.map { CharacterSet.alphanumerics.contains($0) } == true,
            field,
            "must be 1–100 of a–z, 0–9 and . _ : -, starting with a letter or digit"
        )
        try validator.throwIfInvalid()
        return key
    }

    /// The week as given ("2026-W10").
    public static func validatedWeek(_ text: String, field: String = "week") throws(ValidationError) -> IsoWeek {
        guard let week = IsoWeek(text) else {
            throw ValidationError(field: field, reason: "must be an ISO week such as 2026-W10")
        }
        return week
    }
}
