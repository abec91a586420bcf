/// When a personalised reminder goes out: a while before the time this user usually trains or checks in
/// (spec 001, NOTIF-03: the median of recent times; spec 000: 30–60 minutes before), else the default.
public enum SendTime {
    /// Fewer recent times than this and the habit is not known yet.
    public static let minimumSamples = 14
    /// Only the most recent times count.
    public static let maximumSamples = 28
    /// How long before the habitual time a reminder comes unless its type says (within spec 000's 30–60
    /// minutes; spec 001's push-up reminders come at the median itself, a lead of 0).
    public static let defaultLeadMinutes = 45

    /// The median of the last `maximumSamples` local times (oldest first), when there are enough.
    public static func habitual(_ recent: [LocalTime]) -> LocalTime? {
        let window = recent.suffix(Self.maximumSamples).map(\.minutes).sorted()
        guard window.count >= Self.minimumSamples else { return nil }
        let middle = window.count / 2
        let median = window.count.isMultiple(of: 2) ? (window[middle - 1] + window[middle]) / 2 : window[middle]
        return LocalTime(hour: median / 60, minute: median % 60)
    }

    /// The habitual time less `lead` minutes, or `fallback`; moved out of quiet hours to their end, and kept
    /// within 06:00–23:00.
    public static func plan(
        fallback: LocalTime,
        habitual: LocalTime?,
        lead: Int = Self.defaultLeadMinutes,
        preferences: NotificationPreferences
    ) -> LocalTime {
        var minutes = habitual.map { $0.minutes - lead } ?? fallback.minutes
        minutes = min(max(minutes, 6 * 60), 23 * 60)
        let planned = LocalTime(minutesSinceMidnight: minutes)
        return preferences.isQuiet(at: planned) ? preferences.quietEnd : planned
    }
}
