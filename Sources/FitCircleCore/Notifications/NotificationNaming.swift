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
        var data = Self.naming(data, as: Self.deletedName)
        data[Self.actorKey] = nil
        return data
    }
}

extension NotificationRecord {
    /// The record with its actor named `name`, or erased when their account is gone (`nil`), and its copy
    /// rendered again from the catalog (unchanged when the catalog no longer has the type).
    public func namingActor(_ name: String?, catalog: NotificationCatalog) -> NotificationRecord {
        guard let kind = catalog[self.type] else { return self }
        var record = self
        record.data = name.map { NotificationNaming.naming(self.data, as: $0) } ?? NotificationNaming.erasingActor(from: self.data)
        (record.title, record.body, record.deepLink) = kind.render(record.data)
        return record
    }
}
