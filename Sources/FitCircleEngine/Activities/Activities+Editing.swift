public import FitCircleCore
import FitCircleStore
public import Foundation

extension Activities {
    /// What an edit answered: whether it replaced the stored version, and the version stored now.
    public struct EditOutcome: Equatable, Sendable {
        public var applied: Bool
        public var event: ActivityEvent
    }

    /// Replaces the content of the user's activity `input.clientEventID` with an edit a device made at
    /// `modifiedAt` — if it is later than the stored version; otherwise the stored (later) version stays and
    /// is answered. So two devices that edited it offline end, once both have synced, on the version edited
    /// last, whichever synced first. Its type cannot change; an app open or a check-in cannot be edited.
    public func edit(_ input: ActivityInput, modifiedAt: Date, of user: User.ID) async throws -> EditOutcome {
        let now = self.clock.now()
        guard modifiedAt <= now.addingTimeInterval(ActivityRules.maximumFutureSkew) else {
            throw ValidationError(field: "modifiedAt", reason: "must not be in the future")
        }
        return try await self.store.transaction { tx in
            guard let account = try await tx.users.locked(user) else {
                throw DomainError.notFound(resource: "user", id: user.rawValue)
            }
            guard let stored = try await tx.activities.activity(of: user, clientEventID: input.clientEventID),
                stored.deletedAt == nil
            else {
                throw DomainError.notFound(resource: "activity", id: input.clientEventID)
            }
            return try await self.ingest.edit(
                stored.event,
                to: input,
                modifiedAt: modifiedAt,
                of: account,
                in: tx,
                now: now
            )
        }
    }
}

extension Ingest {
    /// Stores an edit in place of `stored` when it is the later version, and everything derived follows in
    /// the same transaction: both local days, the streak, the points (the old version's taken back, the new
    /// one's credited under its revision's keys), the habitual time and the challenges' boards.
    func edit(
        _ stored: ActivityEvent,
        to input: ActivityInput,
        modifiedAt: Date,
        of user: User,
        in tx: Transaction,
        now: Date
    ) async throws -> Activities.EditOutcome {
        guard input.payload.kind == stored.kind else {
            throw ValidationError(
                field: "activity.type",
                reason: "cannot change: an edit keeps the activity's type (\(stored.kind.rawValue))"
            )
        }
        guard stored.kind != .appOpen && stored.kind != .checkIn else {
            throw ValidationError(field: "activity.type", reason: "\(stored.kind.rawValue) cannot be edited")
        }
        let placed = try ActivityRules.validate(
            input,
            defaultTimeZone: user.profile.timeZone,
            limits: self.profile.limits,
            now: now,
            field: "activity."
        )
        guard stored.isSuperseded(byEditAt: modifiedAt) else { return .init(applied: false, event: stored) }
        var edited = self.event(input, placed: placed, of: user, now: now)
        edited.id = stored.id
        edited.receivedAt = stored.receivedAt
        edited.visibility = input.visibility ?? stored.visibility
        edited.flags = stored.kind == .steps ? try await self.spikeFlags(of: edited, in: tx) : stored.flags
        edited.revision = stored.revision + 1
        edited.modifiedAt = modifiedAt
        try await tx.activities.replace(edited, at: now)

        try await self.recompute(
            [UserDay(user: user.id, date: stored.localDate), UserDay(user: user.id, date: edited.localDate)],
            in: tx,
            now: now
        )
        if self.streaks.matters(edited.payload) {
            _ = try await self.streaks.refresh(
                user,
                in: tx,
                now: now,
                changedFrom: min(stored.localDate, edited.localDate)
            )
        }
        if self.rewards.matters(edited.payload, streaks: self.streaks) {
            try await self.rewards.reverse(stored, of: user, in: tx, now: now)
            _ = try await self.rewards.award([edited], of: user, streak: nil, in: tx, now: now)
        }
        if SendHabits.matters(edited.payload) {
            try await SendHabits.refresh([user.id], in: tx)
        }
        try await self.challenges.restate([user.id], in: tx, now: now)
        return .init(applied: true, event: edited)
    }
}
