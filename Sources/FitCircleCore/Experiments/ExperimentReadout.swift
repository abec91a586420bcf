/// What an experiment found: for each variant and measure, the share with its interval, and how it
/// compares with the control by a two-proportion z-test (over people where a person counts several days
/// or periods, see `Proportion(pooling:)`) — with a warning wherever a sample is too small to conclude
/// anything.
public struct ExperimentReadout: Equatable, Sendable {
    /// What is measured of each variant's people from their first exposure on.
    public enum Measure: String, Equatable, Sendable, CaseIterable, Codable {
        case d7Retention = "d7_retention"
        case d30Retention = "d30_retention"
        case goalCompletion = "goal_completion"
        case optOut = "opt_out"
        case streakSaves = "streak_saves"

        public var definition: String {
            switch self {
            case .d7Retention:
                "Of the people exposed at least 8 days ago, the share active in the app on the 7th day after their first exposure (in their zone)."
            case .d30Retention:
                "Of the people exposed at least 31 days ago, the share active in the app on the 30th day after their first exposure."
            case .goalCompletion:
                "Of the daily goals planned for the variant's people from their exposure on, the share met."
            case .optOut:
                "Of the people exposed, the share who switched every notification channel off after their exposure."
            case .streakSaves:
                "Of the streak periods the variant's people missed after their exposure, the share a freeze covered: why streaks survive."
            }
        }
    }

    public struct Figure: Equatable, Sendable {
        public var measure: Measure
        public var proportion: Proportion
        public var interval: ClosedRange<Double>
        /// Against the control; `nil` for the control itself.
        public var comparison: TwoProportionTest?
        /// Set when this sample or the control's is too small for the test to mean anything.
        public var warning: String?
    }

    public struct Variant: Equatable, Sendable {
        public var name: String
        public var control: Bool
        public var exposed: Int
        public var figures: [Figure]
    }

    public var confidence: Double
    public var variants: [Variant]

    /// Reads the counts of each variant (`measures[variant][measure]`) against the control's.
    public init(
        variants: [ExperimentVariant],
        control: String,
        exposed: [String: Int],
        measures: [String: [Measure: Proportion]],
        confidence: Double = 0.95
    ) {
        self.confidence = confidence
        let baseline = measures[control] ?? [:]
        self.variants = variants.map { variant in
            let isControl = variant.name == control
            let counts = measures[variant.name] ?? [:]
            let figures = Measure.allCases.map { measure -> Figure in
                let proportion = counts[measure] ?? Proportion(0, of: 0)
                let reference = baseline[measure] ?? Proportion(0, of: 0)
                var warning: String?
                if !proportion.isLargeEnough || (!isControl && !reference.isLargeEnough) {
                    warning =
                        "Too small a sample to conclude: a z-test needs at least 30 trials (people, days, periods), 5 of each outcome and, where a person counts several days or periods, 20 people, in both this variant and the control."
                }
                return Figure(
                    measure: measure,
                    proportion: proportion,
                    interval: proportion.interval(confidence: confidence),
                    comparison: isControl
                        ? nil : TwoProportionTest(proportion, against: reference, confidence: confidence),
                    warning: warning
                )
            }
            return Variant(
                name: variant.name,
                control: isControl,
                exposed: exposed[variant.name] ?? 0,
                figures: figures
            )
        }
    }
}
