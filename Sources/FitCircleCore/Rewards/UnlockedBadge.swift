public import Foundation

/// A badge a user holds, with the name it was unlocked under (dated badges such as "Weekly Challenge …").
public struct UnlockedBadge: Equatable, Sendable {
    public var badgeID: String
    public var name: String
    public var date: LocalDate
    public var unlockedAt: Date

    public init(badgeID: String, name: String, date: LocalDate, unlockedAt: Date) {
        self.badgeID = badgeID
        self.name = name
        self.date = date
        self.unlockedAt = unlockedAt
    }
}
