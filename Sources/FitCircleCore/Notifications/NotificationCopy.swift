import Foundation

/// How values read in notification copy, whatever the server's locale: "6,000 steps", "February 2026".
public enum NotificationCopy {
    public static func count(_ value: Int) -> String {
        value.formatted(.number.locale(Locale(identifier: "en_US")))
    }

    public static func month(_ date: LocalDate) -> String {
        let names = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
        return "\(names[date.month - 1]) \(date.year)"
    }
}
