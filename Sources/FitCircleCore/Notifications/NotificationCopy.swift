import Foundation

/// How values read in notification copy, whatever the server's locale: "6,000 steps", "February 2026".
public enum NotificationCopy {
    public static func count(_ value: Int) -> String {
        value.formatted(.number.locale(Locale(identifier: "en_US")))
    }

    /// A change of weight in the user's unit, signed, one decimal: "-1.2 lb", "+0.4 kg", "0.0 kg".
    public static func weightChange(kilograms: Double, in unit: WeightUnit) -> String {
        let value = (unit.value(fromKilograms: kilograms) * 10).rounded() / 10
        let sign = value > 0 ? "+" : value < 0 ? "-" : ""
        return "\(sign)\(String(format: "%.1f", abs(value))) \(unit.rawValue)"
    }

    public static func month(_ date: LocalDate) -> String {
        let names = [
            "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
            "November", "December",
        ]
        return "\(names[date.month - 1]) \(date.year)"
    }
}
