/// The unit a weight was entered in; stored values are kilograms.
public enum WeightUnit: String, CaseIterable, Equatable, Sendable, Codable {
    case kg, lb

    public static let kilogramsPerPound = 0.45359237

    public func kilograms(_ value: Double) -> Double {
        switch self {
        case .kg: value
        case .lb: value * Self.kilogramsPerPound
        }
    }

    public func value(fromKilograms kilograms: Double) -> Double {
        switch self {
        case .kg: kilograms
        case .lb: kilograms / Self.kilogramsPerPound
        }
    }
}

/// The unit a height was entered in; stored values are centimetres.
public enum HeightUnit: String, CaseIterable, Equatable, Sendable, Codable {
    case cm
    case ftIn = "ft_in"

    public static let centimetresPerInch = 2.54
}

/// The unit distances are shown in; stored values are metres.
public enum DistanceUnit: String, CaseIterable, Equatable, Sendable, Codable {
    case km, mi
}
