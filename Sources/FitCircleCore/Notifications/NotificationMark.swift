/// What a person did with a notification, each recorded once: read it, opened it, took its action.
public enum NotificationMark: String, Sendable, CaseIterable {
    case read, opened, action
}
