/// Spec 000's research takeaway: "guide new users to 4+ check-ins in week 1 through aggressive onboarding
/// nudges". In an account's first seven days, until it has checked in four times, the day's check-in
/// reminders (the morning's goals, the evening's critical reminder) say where the person stands — no new
/// notification, so the nudge never spends the day's budget of others.
public enum FirstWeekNudge {
    public static let days = 7
    public static let checkIns = 4

    /// The trigger data a reminder adds on the account's `accountDay` (1 on the day it was made) after
    /// `checkIns` check-ins: `firstWeek: yes`, `checkIns` and `toGo`; none once the week is over or the
    /// four are reached.
    public static func data(accountDay: Int, checkIns: Int) -> [String: String] {
        guard (1...Self.days).contains(accountDay), checkIns < Self.checkIns else { return [:] }
        return ["firstWeek": "yes", "checkIns": "\(max(0, checkIns))", "toGo": "\(Self.checkIns - max(0, checkIns))"]
    }
}
