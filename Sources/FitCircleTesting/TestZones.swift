/// Time zones for tests that must hold wherever people live.
public enum TestZones {
    /// Five zones far apart: the first to see a day (UTC+14), one 45 minutes off the hour, Europe and the
    /// Americas with their DST, and one of the last (UTC−11).
    public static let farApart = [
        "Pacific/Kiritimati", "Asia/Kathmandu", "Europe/Paris", "America/New_York", "Pacific/Pago_Pago",
    ]
}
