import FitCircleCore

/// Converts between a Core enum and its generated OpenAPI twin, which share raw values by design.
///
/// It never traps: a case one side lacks fails this request with a 500 (the node goes on serving), and
/// `MappingTests` walks every pair the server converts over all its cases, so such a case fails the test
/// run first. (A force-unwrapped conversion once let one ledger line take down any node that read it.)
func mapped<Target: RawRepresentable>(_ value: some RawRepresentable<String>) throws(UnmappedCase) -> Target
where Target.RawValue == String {
    guard let target = Target(rawValue: value.rawValue) else {
        throw UnmappedCase(type: "\(Target.self)", value: value.rawValue)
    }
    return target
}

/// A raw value the twin enum has no case for: the document and Core disagree (a defect, never bad input).
struct UnmappedCase: Error, CustomStringConvertible {
    let type: String
    let value: String

    var description: String { "\(self.type) has no case '\(self.value)'" }
}

/// A stored text (a job's state, a delivery's outcome, a unit) as the document's enum; never traps either.
func mapped<Target: RawRepresentable>(raw value: String) throws(UnmappedCase) -> Target
where Target.RawValue == String {
    guard let target = Target(rawValue: value) else {
        throw UnmappedCase(type: "\(Target.self)", value: value)
    }
    return target
}
