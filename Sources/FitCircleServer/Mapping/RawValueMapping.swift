/// Converts between a Core enum and its generated OpenAPI twin, which share raw values by design.
/// `MappingTests` checks every case both ways, so the unwrap cannot fail at run time.
func mapped<Target: RawRepresentable>(_ value: some RawRepresentable<String>) -> Target where Target.RawValue == String {
    guard let target = Target(rawValue: value.rawValue) else {
        preconditionFailure("\(Target.self) has no case '\(value.rawValue)'")
    }
    return target
}
