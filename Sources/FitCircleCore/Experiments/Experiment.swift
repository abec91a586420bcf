public import Foundation

/// An A/B test of rule profiles (spec 000, "A/B Testing Roadmap" and "Rollout Strategy"): people are put
/// into weighted variants by a hash of the experiment and the person, each variant an overlay on the app's
/// rule profile, rolled out to a growing share of people.
public struct Experiment: Equatable, Sendable, Codable {
    public typealias ID = Identifier<Experiment>

    public enum State: String, Equatable, Sendable, Codable, CaseIterable {
        /// Made, not started: nobody is in it yet.
        case draft
        /// People in the rollout get their variant's rules.
        case running
        /// Everybody gets the app's rules; assignments are kept for when it runs again.
        case paused
        /// Over for good: everybody gets the app's rules; its results stay readable.
        case stopped
    }

    public var id: ID
    /// A short name of its own (`freeze_policy_2025_q1`): lowercase letters, digits, `_` and `-`.
    public var name: String
    public var description: String
    public var variants: [ExperimentVariant]
    public var state: State
    /// The share of people in it, from 1 to 100: 25 → 50 → 100 in a staged rollout.
    public var rolloutPercent: Int
    public var createdAt: Date
    public var startedAt: Date?
    public var stoppedAt: Date?

    public init(
        id: ID,
        name: String,
        description: String,
        variants: [ExperimentVariant],
        state: State = .draft,
        rolloutPercent: Int,
        createdAt: Date,
        startedAt: Date? = nil,
        stoppedAt: Date? = nil
    ) {
        self.id = id
        self.name = name
        self.description = description
        self.variants = variants
        self.state = state
        self.rolloutPercent = rolloutPercent
        self.createdAt = createdAt
        self.startedAt = startedAt
        self.stoppedAt = stoppedAt
    }

    public static let maximumVariants = 8

    /// The variant results are compared with: the one marked `control`, else the first.
    public var control: ExperimentVariant { self.variants.first(where: \.control) ?? self.variants[0] }

    /// Checks a new experiment's name, variants and rollout; every problem is named by its field.
    public static func validate(name: String, description: String, variants: [ExperimentVariant], rolloutPercent: Int)
        throws
    {
        var violations: [FieldViolation] = []
        if name.wholeMatch(of: /[a-z0-9][a-z0-9_-]{0,63}/) == nil {
            violations.append(.init(field: "name", reason: "must be 1 to 64 lowercase letters, digits, _ or -"))
        }
        if description.count > 2_000 {
            violations.append(.init(field: "description", reason: "must be at most 2000 characters"))
        }
        if !(2...Self.maximumVariants).contains(variants.count) {
            violations.append(.init(field: "variants", reason: "must have 2 to \(Self.maximumVariants) variants"))
        }
        var seen: Set<String> = []
        for (index, variant) in variants.enumerated() {
            if variant.name.wholeMatch(of: /[a-z0-9][a-z0-9_-]{0,31}/) == nil {
                violations.append(
                    .init(field: "variants[\(index)].name", reason: "must be 1 to 32 lowercase letters, digits, _ or -")
                )
            } else if !seen.insert(variant.name).inserted {
                violations.append(.init(field: "variants[\(index)].name", reason: "is used by another variant"))
            }
            if !(1...1_000).contains(variant.weight) {
                violations.append(.init(field: "variants[\(index)].weight", reason: "must be from 1 to 1000"))
            }
        }
        if variants.filter(\.control).count > 1 {
            violations.append(.init(field: "variants", reason: "at most one variant may be the control"))
        }
        if !(1...100).contains(rolloutPercent) {
            violations.append(.init(field: "rolloutPercent", reason: "must be from 1 to 100"))
        }
        guard violations.isEmpty else { throw ValidationError(violations) }
    }

    /// Moves to `state` (start, pause, resume, stop) and/or widens the rollout; a rollout never narrows once
    /// started, so nobody who was in leaves, and a stopped experiment stays stopped.
    public func changed(to state: State?, rolloutPercent: Int?, at now: Date) throws -> Experiment {
        var next = self
        if let rolloutPercent {
            guard (1...100).contains(rolloutPercent) else {
                throw ValidationError(field: "rolloutPercent", reason: "must be from 1 to 100")
            }
            guard self.state == .draft || rolloutPercent >= self.rolloutPercent else {
                throw ValidationError(
                    field: "rolloutPercent",
                    reason: "cannot narrow from \(self.rolloutPercent) once started: people in it would leave"
                )
            }
            guard self.state != .stopped else {
                throw DomainError.refused(Refusal(.wrongState, "The experiment is stopped."))
            }
            next.rolloutPercent = rolloutPercent
        }
        if let state, state != self.state {
            switch (self.state, state) {
            case (.draft, .running), (.paused, .running), (.running, .paused), (.running, .stopped),
                (.paused, .stopped), (.draft, .stopped):
                break
            default:
                throw DomainError.refused(
                    Refusal(.wrongState, "An experiment cannot go from \(self.state.rawValue) to \(state.rawValue).")
                )
            }
            next.state = state
            if state == .running, next.startedAt == nil { next.startedAt = now }
            if state == .stopped { next.stoppedAt = now }
        }
        return next
    }
}

/// One arm of an experiment.
public struct ExperimentVariant: Equatable, Sendable, Codable {
    public var name: String
    /// Its share of the experiment's people, relative to the other variants' weights.
    public var weight: Int
    /// What its people's rules change; empty for a control that keeps the app's rules.
    public var overlay: ProfileOverlay
    /// `false`: a hold-out group that gets no engagement notifications (only critical ones).
    public var engagementNotifications: Bool
    /// The variant the others are compared with.
    public var control: Bool

    public init(
        name: String,
        weight: Int,
        overlay: ProfileOverlay = .none,
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
