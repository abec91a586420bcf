/// A change of some of a circle's fields (`PATCH /api/fitcircles/{id}`): what it leaves out keeps its value,
/// where `CircleInput` (PUT) is the whole circle and gives what it leaves out its default.
public struct CircleChange: Equatable, Sendable {
    public var name: String?
    public var description: String?
    public var metric: FitCircle.Metric?
    public var startDate: LocalDate?
    public var endDate: LocalDate?
    public var timeZone: String?
    public var privacy: FitCircle.Privacy?
    public var memberLimit: Int?
    public var stepGoal: Int?

    public init(
        name: String? = nil,
        description: String? = nil,
        metric: FitCircle.Metric? = nil,
        startDate: LocalDate? = nil,
        endDate: LocalDate? = nil,
        timeZone: String? = nil,
        privacy: FitCircle.Privacy? = nil,
        memberLimit: Int? = nil,
        stepGoal: Int? = nil
    ) {
        self.name = name
        self.description = description
        self.metric = metric
        self.startDate = startDate
        self.endDate = endDate
        self.timeZone = timeZone
        self.privacy = privacy
        self.memberLimit = memberLimit
        self.stepGoal = stepGoal
    }

    /// The whole circle this change makes of `circle`, to be validated and applied as a PUT's is. The start
    /// is given only when the change gives it: a start left out is no start moved.
    public func input(onto circle: FitCircle) -> CircleInput {
        CircleInput(
            name: self.name ?? circle.name,
            description: self.description ?? circle.description,
            metric: self.metric ?? circle.metric,
            startDate: self.startDate,
            endDate: self.endDate ?? circle.endDate,
            timeZone: self.timeZone ?? circle.timeZone,
            privacy: self.privacy ?? circle.privacy,
            memberLimit: self.memberLimit ?? circle.memberLimit,
            stepGoal: self.stepGoal ?? circle.stepGoal
        )
    }
}
