public import Foundation

/// An account: who signed in, what they may do, and their profile.
public struct User: Equatable, Sendable {
    public typealias ID = Identifier<User>

    public var id: ID
    public var email: String
    public var role: Role
    public var profile: UserProfile
    public var createdAt: Date
    /// Set when an operator disabled the account: its tokens stop working at once.
    public var disabledAt: Date?

    /// The user's calendar day at `instant`, in their own time zone (UTC if the stored zone is unknown).
    public func localDate(at instant: Date) -> LocalDate {
        LocalDate(instant, in: TimeZone(identifier: self.profile.timeZone) ?? .gmt)
    }

    /// Which day of the account `date` is: 1 on the day it was made, where the user is.
    public func accountDay(_ date: LocalDate) -> Int {
        date.days(since: self.localDate(at: self.createdAt)) + 1
    }

    /// What an account may do beyond its own data.
    public enum Role: String, CaseIterable, Equatable, Sendable, Codable {
        case member
        /// Runs the installation: operator-only endpoints (refresh a board, send a notification) are open to it.
        case `operator`
    }

    public init(
        id: ID,
        email: String,
        role: Role = .member,
        profile: UserProfile,
        createdAt: Date,
        disabledAt: Date? = nil
    ) {
        self.id = id
        self.email = email
        self.role = role
        self.profile = profile
        self.createdAt = createdAt
        self.disabledAt = disabledAt
    }
}
