/// Comparing secrets (tokens, MACs, a sign-in flow's state) in time that does not depend on where they
/// first differ, so an attacker cannot find a secret a byte at a time by timing the refusals.
public enum ConstantTime {
    /// Whether `one` and `other` are the same bytes; only their lengths show in the time taken.
    public static func equal(_ one: String, _ other: String) -> Bool {
        let (x, y) = (Array(one.utf8), Array(other.utf8))
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
