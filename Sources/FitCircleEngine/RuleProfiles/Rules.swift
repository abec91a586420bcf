public import FitCircleCore
public import FitCircleStore
public import Foundation
import Logging
import Synchronization

/// The rule profile each person is under: the app's own, with the overlay of the variant they are in of
/// each running experiment merged on (issue 24). Every rule that may differ per person — streak freezes,
/// goal targets, notification budgets and timing — is read through here; what is the same for everyone
/// (the week, the streak's basis, points, events) is read from `base`.
///
/// Assignment is a hash (`ExperimentAssignment`), so finding a person's variant needs no query: the node
/// keeps the live experiments for a few seconds (a `LiveSnapshot`: a change made here applies at once, one
/// made on another node within 5 seconds). A transaction that writes records the person's first exposure
/// in passing.
public struct Rules: Sendable {
    public let base: RuleProfile
    let book: ExperimentBook
    static let logger = Logger(label: "fitcircle.experiments")

    public init(base: RuleProfile) {
        self.base = base
        self.book = ExperimentBook()
    }

    /// The profile `user` is under now.
    public func of(_ user: User, in tx: Transaction, at now: Date) async throws -> RuleProfile {
        try await self.personal(user, in: tx, at: now).profile
    }

    /// What applies to `user` now: their profile, and whether engagement notifications reach them.
    public func personal(_ user: User, in tx: Transaction, at now: Date) async throws -> Personal {
        try await self.personal(user.id, on: user.localDate(at: now), in: tx, at: now)
    }

    /// What applies to `user`, whose local day is `today`. With `exposing` (and a transaction that writes)
    /// the first time records their exposure to each variant they are in.
    func personal(_ user: User.ID, on today: LocalDate, in tx: Transaction, at now: Date, exposing: Bool = true)
        async throws -> Personal
    {
        var personal = Personal(profile: self.base, engagementNotifications: true, variants: [:])
        var overlaid = false
        for live in try await self.live(in: tx) where live.experiment.state == .running {
            guard let variant = ExperimentAssignment.variant(of: user, in: live.experiment) else { continue }
            personal.variants[live.experiment.name] = variant.name
            if !variant.overlay.isEmpty, let profile = live.profiles[variant.name] {
                if !overlaid {
                    personal.profile = profile
                    overlaid = true
                } else {
                    // A second running experiment's overlay goes on what the first left. Each was checked on the app's
                    // profile alone; where the two together make a profile the loader refuses, the first one's stands.
                    do {
                        personal.profile = try variant.overlay.applied(to: personal.profile, field: "overlay")
                    } catch {
                        Self.logger.warning(
                            "Two running experiments' overlays do not combine; the first one's applies",
                            metadata: [
                                "experiment": "\(live.experiment.name)", "variant": "\(variant.name)",
                                "error": "\(error)",
                            ]
                        )
                    }
                }
            }
            if !variant.engagementNotifications { personal.engagementNotifications = false }
            let exposure = ExperimentBook.Exposure(experiment: live.experiment.id, user: user)
            if exposing, tx.writes, !self.book.isKnown(exposure) {
                try await tx.experiments.expose(user, to: live.experiment.id, variant: variant.name, on: today, at: now)
                tx.afterCommit { [book = self.book] in book.remember(exposure) }
            }
        }
        return personal
    }

    public struct Personal: Sendable {
        public var profile: RuleProfile
        public var engagementNotifications: Bool
        /// The variant of each running experiment the person is in, by experiment name.
        public var variants: [String: String]
    }

    /// Forgets what this node knows of the live experiments: the next read loads them again.
    func experimentsChanged() {
        self.book.forget()
    }

    private func live(in tx: Transaction) async throws -> [ExperimentBook.Live] {
        if let live = self.book.current() { return live }
        let experiments = try await tx.experiments.live()
        let live = experiments.map { experiment in
            ExperimentBook.Live(
                experiment: experiment,
                profiles: Dictionary(
                    experiment.variants.compactMap { variant in
                        (try? variant.overlay.applied(to: self.base, field: "overlay")).map { (variant.name, $0) }
                    },
                    uniquingKeysWith: { first, _ in first }
                )
            )
        }
        self.book.keep(live)
        return live
    }
}

/// What one node knows of the live experiments, and whose first exposure it saw committed.
final class ExperimentBook: Sendable {
    struct Live: Sendable {
        var experiment: Experiment
        /// Each variant's profile: the base with its overlay merged on.
        var profiles: [String: RuleProfile]
    }

    struct Exposure: Hashable, Sendable {
        var experiment: Experiment.ID
        var user: User.ID
    }

    /// How many exposures are remembered before the memory starts again (recording one is idempotent).
    static let exposureMemory = 200_000

    /// The live experiments, read again after 5 seconds.
    let live = LiveSnapshot<[Live]>()
    private let exposed = Mutex<Set<Exposure>>([])

    func current() -> [Live]? { self.live.current() }

    func keep(_ live: [Live]) { self.live.keep(live) }

    func forget() { self.live.forget() }

    func isKnown(_ exposure: Exposure) -> Bool {
        self.exposed.withLock { $0.contains(exposure) }
    }

    func remember(_ exposure: Exposure) {
        self.exposed.withLock { exposed in
            if exposed.count >= Self.exposureMemory { exposed.removeAll(keepingCapacity: true) }
            exposed.insert(exposure)
        }
    }
}
