/// The person a notification names. Its copy is rendered when it is decided (a push cannot be taken back),
/// but the inbox shows it with the name as it reads now: a rename, a board opt-out or a deletion reaches
/// the copy of every notification that named them.
public enum NotificationNaming {
    /// The data key of the person the copy names.
    public static let actorKey = "actorId"
    /// The variables of the catalog's copy that hold the actor's name.
    static let nameKeys = ["name", "inviter"]
    /// How a deleted account is named wherever it was named before.
    public static let deletedName = "Deleted user"

    public static func actor(in data: [String: String]) -> User.ID? {
        data[Self.actorKey].map(User.ID.init)
    }

    /// `data` with the actor named `name`.
    public static func naming(_ data: [String: String], as name: String) -> [String: String] {
        var data = data
        for key in Self.nameKeys where data[key] != nil { data[key] = name }
        return data
    }

    /// `data` once the actor's account is deleted: named "Deleted user", and no longer pointing at them.
    public static func erasingActor(from data: [String: String]) -> [String: String] {
        Self.unnaming(data, as: Self.deletedName)
    }

    /// `data` naming no one: `name` in the copy, and no id to look them up by.
    static func unnaming(_ data: [String: String], as name: String) -> [String: String] {
        var data = Self.naming(data, as: name)
        data[Self.actorKey] = nil
        return data
    }

    /// The types whose copy names someone as a circle's board does (`ProfileAccess.boardName`): "A member"
    /// to whom their board-name audience leaves out.
    public static let boardTypes: Set<String> = ["leaderboard_passed"]

    /// How the copy names its actor to its reader.
    public enum Shown: Equatable, Sendable {
        case named(String)
        /// "A member", with no id.
        case anonymous
        case deleted
    }
}

extension NotificationRecord {
    /// The record with its actor as `shown`, and its copy rendered again from the catalog (unchanged when
    /// the catalog no longer has the type).
    public func namingActor(_ shown: NotificationNaming.Shown, catalog: NotificationCatalog) -> NotificationRecord {
        guard let kind = catalog[self.type] else { return self }
        var record = self
        record.data =
            switch shown {
            case .named(let name): NotificationNaming.naming(self.data, as: name)
            case .anonymous: NotificationNaming.unnaming(self.data, as: ProfileAccess.anonymousMember)
            case .deleted: NotificationNaming.erasingActor(from: self.data)
            }
        (record.title, record.body, record.deepLink) = kind.render(record.data)
        return record
    }
}
