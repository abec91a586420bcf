public import FitCircleClient

extension Components.Schemas.GoalPeriod {
    /// The period's goal of `type`, if it has one.
    public subscript(type: Components.Schemas.GoalType) -> Components.Schemas.GoalProgress? {
        self.goals.first { $0._type == type }
    }
}
