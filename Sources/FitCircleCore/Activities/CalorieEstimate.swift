/// Calories of a workout from MET values (Compendium of Physical Activities), the user's weight and the
/// duration: kcal = MET × kg × hours, a MET being a multiple of the reference resting rate of 1 kcal/kg/h.
/// When age, height and sex are known, the MET multiplies the person's own resting rate instead
/// (Harris–Benedict: kcal = MET × BMR/24 × hours), so age and weight both shape the estimate
/// (spec 004, Requirement 4.10).
public enum CalorieEstimate {
    /// The weight assumed for someone who has not told theirs: the Compendium's reference adult.
    public static let referenceWeightKg = 70.0

    /// The MET of a workout: by type, and by speed for walking, running and cycling.
    public static func met(for workout: Workout) -> Double {
        let speed = workout.distanceMeters.map { $0 / max(workout.durationSeconds, 1) * 3.6 }  // km/h
        switch workout.type {
        case .walking:
            guard let speed else { return 3.5 }
            return speed < 3.2 ? 2.8 : speed < 4.8 ? 3.5 : speed < 5.6 ? 4.3 : speed < 6.4 ? 5.0 : 7.0
        case .running:
            guard let speed else { return 9.8 }
            return speed < 8
                ? 8.3 : speed < 9.7 ? 9.8 : speed < 11.3 ? 11.0 : speed < 12.9 ? 11.8 : speed < 14.5 ? 12.8 : 14.5
        case .cycling:
            guard let speed else { return 7.5 }
            return speed < 16 ? 4.0 : speed < 19 ? 6.8 : speed < 22.5 ? 8.0 : speed < 25.7 ? 10.0 : 12.0
        case .strength: return 5.0
        case .pushups: return 3.8
        case .other: return 4.0
        }
    }

    /// Estimated kilocalories of `workout` for a person of `weightKg`.
    public static func kilocalories(
        _ workout: Workout,
        weightKg: Double,
        age: Int? = nil,
        heightCm: Double? = nil,
        gender: Gender? = nil
    ) -> Double {
        var met = self.met(for: workout)
        if let rmr = self.restingRate(weightKg: weightKg, age: age, heightCm: heightCm, gender: gender) {
            met *= rmr / 3.5
        }
        let kcal = met * weightKg * workout.durationSeconds / 3600
        return (kcal * 10).rounded() / 10
    }

    /// Resting metabolic rate in ml O₂/kg/min from Harris–Benedict, when the inputs are known.
    static func restingRate(weightKg: Double, age: Int?, heightCm: Double?, gender: Gender?) -> Double? {
        guard let age, let heightCm else { return nil }
        let kcalPerDay: Double
        switch gender {
        case .male: kcalPerDay = 66.473 + 13.7516 * weightKg + 5.0033 * heightCm - 6.755 * Double(age)
        case .female: kcalPerDay = 655.0955 + 9.5634 * weightKg + 1.8496 * heightCm - 4.6756 * Double(age)
        default: return nil
        }
        // kcal/day → ml O₂/kg/min: 1 kcal ≈ 200 ml O₂ (5 kcal per litre), 1440 minutes a day.
        let rate = kcalPerDay / 1440 * 200 / weightKg
        return rate > 0 ? rate : nil
    }
}
