/// How far a member of a circle with a goal has come (spec 000, Features 6 and 7): told at 25, 50, 75 and
/// 100 % by push and in the app, at 50 and 100 % by email as well.
public enum GoalMilestone {
    public static let thresholds = [25, 50, 75, 100]
    public static let emailed: Set<Int> = [50, 100]

    /// The share of a weight-loss target reached, in whole percent rounded down (0 when nothing is lost or
    /// the target is not below the start).
    public static func percent(startingKg: Double, targetKg: Double, currentKg: Double) -> Int {
        guard startingKg > targetKg, currentKg.isFinite else { return 0 }
        let share = (startingKg - currentKg) / (startingKg - targetKg) * 100
        return share.isFinite ? max(0, Int(share.rounded(.down))) : 0
    }

    /// The share of a step goal reached, in whole percent rounded down.
    public static func percent(steps: Int, of goal: Int) -> Int {
        guard goal > 0, steps > 0 else { return 0 }
        return Int(Double(steps) / Double(goal) * 100)
    }

    /// The highest threshold `percent` has reached, if any: someone who jumps from 10 % to 60 % hears of
    /// 50 %, not of 25 % and 50 % at once.
    public static func reached(_ percent: Int) -> Int? { Self.thresholds.last { $0 <= percent } }

    /// What the copy calls it: "Halfway there".
    public static func name(_ threshold: Int) -> String {
        switch threshold {
        case 25: "A quarter of the way"
        case 50: "Halfway there"
        case 75: "Three quarters there"
        default: "Goal reached"
        }
    }
}
