/// Who is in an experiment and in which variant, from a hash of the experiment and the person alone: the
/// same on every node and after every restart, with nothing stored to look up. Two independent hashes
/// decide the two questions, so widening the rollout from 25 to 50 % takes new people in without moving
/// anybody already in from one variant to another.
public enum ExperimentAssignment {
    static let buckets: UInt64 = 10_000

    /// The variant `user` is in, or `nil` when outside the rollout. Does not look at the state: a paused
    /// experiment keeps its assignments for when it runs again.
    public static func variant(of user: User.ID, in experiment: Experiment) -> ExperimentVariant? {
        let rollout = Self.bucket(experiment.id.rawValue, user.rawValue, salt: "rollout")
        guard rollout < UInt64(experiment.rolloutPercent) * Self.buckets / 100 else { return nil }
        let total = experiment.variants.reduce(0) { $0 + UInt64($1.weight) }
        guard total > 0 else { return nil }
        var point = Self.bucket(experiment.id.rawValue, user.rawValue, salt: "variant") * total / Self.buckets
        for variant in experiment.variants {
            if point < UInt64(variant.weight) { return variant }
            point -= UInt64(variant.weight)
        }
        return experiment.variants.last
    }

    /// A number from 0 to 9,999, evenly spread: FNV-1a over the parts, then SplitMix64's finaliser so
    /// nearby ids land far apart.
    static func bucket(_ experiment: String, _ user: String, salt: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in "\(salt)\u{0}\(experiment)\u{0}\(user)".utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        hash = (hash ^ (hash >> 30)) &* 0xbf58_476d_1ce4_e5b9
        hash = (hash ^ (hash >> 27)) &* 0x94d0_49bb_1331_11eb
        hash ^= hash >> 31
        return hash % Self.buckets
    }
}
