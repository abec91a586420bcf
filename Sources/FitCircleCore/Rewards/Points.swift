/// The pure points rules: what one recorded input earns, given what the day has counted so far.
public enum Points {
    /// What one push-up series earned, with every factor of the formula, as its ledger line shows it.
    public struct SeriesAward: Equatable, Sendable, Codable {
        public var series: Int
        public var reps: Int
        /// Reps counted toward totals and rewarded: those under the day's cap.
        public var counted: Int
        /// Reps over the cap: tracked, not counted, not rewarded.
        public var excess: Int
        /// The day's cap when the series was recorded, if the profile has one.
        public var cap: Int?
        public var repMultiplier: Double
        public var seriesMultiplier: Double
        public var streakMultiplier: Double
        public var points: Int

        public var capReached: Bool { self.excess > 0 }
    }

    /// `base × (counted × perRep + series × perSeries) × StreakMult`. Only the reps under the cap count; a
    /// series with none under it earns nothing.
    public static func series(
        number: Int,
        reps: Int,
        countedBefore: Int,
        cap: Int?,
        streakMultiplier: Double,
        policy: RewardPolicy.SeriesPoints
    ) -> SeriesAward {
        let room = cap.map { max(0, $0 - countedBefore) } ?? reps
        let counted = min(reps, room)
        let repMultiplier = Double(counted) * policy.perRep
        let seriesMultiplier = Double(number) * policy.perSeries
        let points =
            counted == 0 ? 0 : Int((policy.base * (repMultiplier + seriesMultiplier) * streakMultiplier).rounded())
        return SeriesAward(
            series: number,
            reps: reps,
            counted: counted,
            excess: reps - counted,
            cap: cap,
            repMultiplier: Self.tidy(repMultiplier),
            seriesMultiplier: Self.tidy(seriesMultiplier),
            streakMultiplier: Self.tidy(streakMultiplier),
            points: points
        )
    }

    /// XP for one workout: minutes × the type's rate + calories × perCalorie, within what is left of the
    /// day's maximum.
    public static func workout(_ workout: Workout, earnedToday: Int, policy: RewardPolicy.WorkoutPoints) -> Int {
        let rate = policy.perMinute[workout.type.rawValue] ?? policy.perMinute["other"] ?? 0
        let earned = Int((workout.durationSeconds / 60 * rate + (workout.calories ?? 0) * policy.perCalorie).rounded())
        return max(0, min(earned, policy.dailyMaximum - earnedToday))
    }

    /// Removes binary noise (5 × 0.3 = 1.5000000000000002) so ledger lines show the spec's figures.
    static func tidy(_ value: Double) -> Double {
        (value * 1_000_000).rounded() / 1_000_000
    }
}
