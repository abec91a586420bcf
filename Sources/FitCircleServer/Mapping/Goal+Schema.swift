import FitCircleAPI
import FitCircleCore
import FitCircleEngine

extension Components.Schemas.GoalPeriod {
    init(_ period: Goals.Period) throws {
        self.init(start: period.start.iso, goals: try period.goals.map(Components.Schemas.GoalProgress.init))
    }
}

extension Components.Schemas.GoalProgress {
    init(_ progress: Goals.Progress) throws {
        let goal = progress.goal
        self.init(
            id: goal.id.rawValue,
            span: try mapped(goal.span),
            period: goal.period.iso,
            _type: try mapped(goal.kind),
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
    init(_ summary: Goals.WeeklySummary) throws {
        self.init(
            weekStart: summary.week.iso,
            reps: summary.reps,
            excessReps: summary.excess,
            target: summary.target,
            percent: summary.percent,
            reached: summary.reached,
            options: try Goals.WeeklySummary.Choice.allCases.compactMap { choice in
                try summary.options[choice].map { .init(choice: try mapped(choice), dailyGoal: $0) }
            },
            alreadySeen: summary.alreadySeen,
            choice: try summary.choice.map(mapped)
        )
    }
}

extension Components.Schemas.TrainingSettings {
    init(_ settings: FitCircleCore.TrainingSettings, saved: Bool) throws {
        self.init(
            value1: .init(
                level: try mapped(settings.level),
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
