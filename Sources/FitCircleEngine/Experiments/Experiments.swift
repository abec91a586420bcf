public import FitCircleCore
public import FitCircleStore
public import Foundation

/// A/B tests of rule profiles, for operators (issue 24; spec 000 "A/B Testing Roadmap"): make one with
/// weighted variants (each an overlay on the profile, or a hold-out without engagement notifications),
/// start, pause, resume and stop it, widen its rollout 25 → 50 → 100 %, and read per variant what it did.
/// Which variant applies to whom is `Rules`' business; this is the experiments' life and their read-out.
public struct Experiments: Sendable {
    let store: Store
    let rules: Rules
    let ids: IDGenerator
    let clock: WallClock

    /// A variant as an operator writes it.
    public struct VariantDraft: Sendable {
        public var name: String
        public var weight: Int
        public var overlay: JSONTree?
        public var engagementNotifications: Bool
        public var control: Bool

        public init(
            name: String,
            weight: Int,
            overlay: JSONTree? = nil,
            engagementNotifications: Bool = true,
            control: Bool = false
        ) {
            self.name = name
            self.weight = weight
            self.overlay = overlay
            self.engagementNotifications = engagementNotifications
            self.control = control
        }
    }

    /// Makes a draft experiment: every variant's overlay must make a valid profile of this app.
    public func create(
        name: String,
        description: String,
        variants drafts: [VariantDraft],
        rolloutPercent: Int,
        by caller: Caller
    ) async throws -> Experiment {
        var variants: [ExperimentVariant] = []
        var violations: [FieldViolation] = []
        for (index, draft) in drafts.enumerated() {
            let field = "variants[\(index)].overlay"
            do {
                let overlay = try draft.overlay.map { try ProfileOverlay($0, field: field) } ?? .none
                _ = try self.checked(overlay, field: field)
                variants.append(
                    ExperimentVariant(
                        name: draft.name,
                        weight: draft.weight,
                        overlay: overlay,
                        engagementNotifications: draft.engagementNotifications,
                        control: draft.control
                    )
                )
            } catch let error as ValidationError {
                violations += error.violations
            }
        }
        do {
            // Names, weights and the control, whatever the overlays were.
            let named = drafts.map { ExperimentVariant(name: $0.name, weight: $0.weight, control: $0.control) }
            try Experiment.validate(
                name: name,
                description: description,
                variants: named,
                rolloutPercent: rolloutPercent
            )
        } catch let error as ValidationError {
            violations = error.violations + violations
        }
        guard violations.isEmpty else { throw ValidationError(violations) }
        let now = self.clock.now()
        let experiment = Experiment(
            id: self.ids.make(),
            name: name,
            description: description,
            variants: variants,
            rolloutPercent: rolloutPercent,
            createdAt: now
        )
        return try await self.store.transaction { tx in
            try await Operators.require(caller, in: tx, to: "make experiments", scope: .experiments)
            guard try await tx.experiments.experiment(named: name) == nil else {
                throw DomainError.conflict(reason: "An experiment is already called \(name).")
            }
            try await tx.experiments.save(experiment, at: now)
            return experiment
        }
    }

    public func list(by caller: Caller) async throws -> [Experiment] {
        try await self.store.read { tx in
            try await Operators.require(caller, in: tx, to: "read experiments", scope: .experiments)
            return try await tx.experiments.all()
        }
    }

    public func experiment(_ id: Experiment.ID, by caller: Caller) async throws -> Experiment {
        try await self.store.read { tx in
            try await Operators.require(caller, in: tx, to: "read experiments", scope: .experiments)
            return try await Self.find(id, in: tx)
        }
    }

    /// Starts, pauses, resumes or stops it and/or widens its rollout; this node applies it at once, the
    /// others within 5 seconds (`LiveSnapshot`).
    public func change(_ id: Experiment.ID, to state: Experiment.State?, rolloutPercent: Int?, by caller: Caller)
        async throws -> Experiment
    {
        let now = self.clock.now()
        let changed = try await self.store.transaction { tx in
            try await Operators.require(caller, in: tx, to: "change experiments", scope: .experiments)
            let experiment = try await Self.find(id, in: tx)
            let changed = try experiment.changed(to: state, rolloutPercent: rolloutPercent, at: now)
            if changed.state == .running {
                // The profile may have changed since the experiment was made: its overlays must still apply.
                for (index, variant) in changed.variants.enumerated() {
                    _ = try self.checked(variant.overlay, field: "variants[\(index)].overlay")
                }
            }
            try await tx.experiments.save(changed, at: now)
            return changed
        }
        self.rules.experimentsChanged()
        return changed
    }

    /// What the experiment shows so far, per variant: days up to yesterday (UTC); goals and streaks — what
    /// the variant's rules decide — only up to the day it stopped.
    public func results(_ id: Experiment.ID, confidence: Double, by caller: Caller) async throws -> (
        experiment: Experiment, readout: ExperimentReadout, through: LocalDate
    ) {
        guard confidence.isFinite, (0.5...0.999).contains(confidence) else {
            throw ValidationError(field: "confidence", reason: "must be from 0.5 to 0.999")
        }
        let through = LocalDate(self.clock.now(), in: .gmt).adding(days: -1)
        return try await self.store.read { tx in
            try await Operators.require(caller, in: tx, to: "read experiments", scope: .experiments)
            let experiment = try await Self.find(id, in: tx)
            let queries = tx.experiments
            let exposed = try await queries.exposed(in: id)
            let d7 = try await queries.retention(in: id, day: .day7, through: through)
            let d30 = try await queries.retention(in: id, day: .day30, through: through)
            let ruled = experiment.stoppedAt.map { min(through, LocalDate($0, in: .gmt)) } ?? through
            let goals = try await queries.dailyGoals(in: id, through: ruled)
            let misses = try await queries.streakMisses(in: id, through: ruled)
            let optOuts = try await queries.optOuts(in: id)
            var measures: [String: [ExperimentReadout.Measure: Proportion]] = [:]
            for variant in experiment.variants {
                measures[variant.name] = [
                    .d7Retention: d7[variant.name] ?? Proportion(0, of: 0),
                    .d30Retention: d30[variant.name] ?? Proportion(0, of: 0),
                    .goalCompletion: goals[variant.name] ?? Proportion(0, of: 0),
                    .optOut: Proportion(optOuts[variant.name]?.count ?? 0, of: exposed[variant.name] ?? 0),
                    .streakSaves: misses[variant.name] ?? Proportion(0, of: 0),
                ]
            }
            let readout = ExperimentReadout(
                variants: experiment.variants,
                control: experiment.control.name,
                exposed: exposed,
                measures: measures,
                confidence: confidence
            )
            return (experiment, readout, through)
        }
    }

    /// The variant of each running experiment `user` is in, by experiment name (the app shows client-side
    /// variants, such as a leaderboard's layout, from this).
    public func assignments(of user: User.ID) async throws -> [String: String] {
        let now = self.clock.now()
        return try await self.store.transaction { tx in
            guard let account = try await tx.users.find(user) else {
                throw DomainError.notFound(resource: "user", id: user.rawValue)
            }
            return try await self.rules.personal(account, in: tx, at: now).variants
        }
    }

    /// The profile `overlay` makes of this app's, checked as a profile file is.
    private func checked(_ overlay: ProfileOverlay, field: String) throws -> RuleProfile {
        let profile = try overlay.applied(to: self.rules.base, field: field)
        do {
            try RuleProfileLoader.check(profile, file: "overlay")
        } catch let error as RuleProfileLoader.InvalidProfile {
            throw ValidationError(field: "\(field).\(error.key)", reason: error.problem)
        }
        return profile
    }

    private static func find(_ id: Experiment.ID, in tx: Transaction) async throws -> Experiment {
        guard id.isWellFormed, let experiment = try await tx.experiments.experiment(id) else {
            throw DomainError.notFound(resource: "experiment", id: id.rawValue)
        }
        return experiment
    }
}
