import FitCircleAPI
import FitCircleCore
import FitCircleEngine

extension Components.Schemas.GoalPeriod {
    init(_ period: Goals.Period) {
        self.init(start: period.start.iso, goals: period.goals.map(Components.Schemas.GoalProgress.init))
    }
}

extension Components.Schemas.GoalProgress {
    init(_ progress: Goals.Progress) {
        let goal = progress.goal
        self.init(
            id: goal.id.rawValue,
            span: mapped(goal.span),
            period: goal.period.iso,
            _type: mapped(goal.kind),
            target: goal.target,
            basis: goal.basis,
            actual: progress.actual,
            percent: goal.target > 0 ? min(100, Int((progress.actual * 100 / goal.target).rounded(.down))) : 100,
            completed: progress.completed,
            completedAt: goal.completedAt,
            breakdown: progress.breakdown.map { .init(date: $0.date.iso, value: $0.value) }
        )
    }
}

extension Components.Schemas.WeeklySummary {
    init(_ summary: Goals.WeeklySummary) {
        self.init(
            weekStart: summary.week.iso,
            reps: summary.reps,
            excessReps: summary.excess,
            target: summary.target,
            percent: summary.percent,
            reached: summary.reached,
            options: Goals.WeeklySummary.Choice.allCases.compactMap { choice in
                summary.options[choice].map { .init(choice: mapped(choice), dailyGoal: $0) }
            },
            alreadySeen: summary.alreadySeen,
            choice: summary.choice.map(mapped)
        )
    }
}

extension Components.Schemas.TrainingSettings {
    init(_ settings: FitCircleCore.TrainingSettings, saved: Bool) {
        self.init(
            value1: .init(
                level: mapped(settings.level),
                capacity: settings.capacity,
                workoutDaysPerWeek: settings.workoutDaysPerWeek,
                dailyGoal: settings.dailyGoal,
                startingSeries: settings.startingSeries,
                recoverySeconds: settings.recoverySeconds
            ),
            value2: .init(weeklyGoal: settings.weeklyGoal, saved: saved)
        )
    }
}
