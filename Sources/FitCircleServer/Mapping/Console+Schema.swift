import FitCircleAPI
import FitCircleCore
import FitCircleEngine
import Foundation

extension Components.Schemas.ConsoleAccount {
    init(_ user: User) throws {
        self.init(
            userId: user.id.rawValue,
            email: user.email,
            displayName: user.profile.displayName,
            role: try mapped(user.role),
            timeZone: user.profile.timeZone,
            createdAt: user.createdAt,
            onboardingCompleted: user.profile.onboardedAt != nil,
            disabledAt: user.disabledAt
        )
    }
}

extension Components.Schemas.ConsoleAccountFile {
    init(_ file: Console.AccountFile) throws {
        self.init(
            account: try .init(file.account),
            streak: try .init(file.streak),
            streakLedger: try file.streakLedger.map(Components.Schemas.StreakEntry.init),
            points: try file.points.map(Components.Schemas.PointsLine.init),
            notifications: try file.notifications.map { record in
                .init(
                    notification: try .init(record),
                    trail: record.trail,
                    deliveries: try (file.attempts[record.id] ?? []).map(Components.Schemas.DeliveryAttempt.init)
                )
            }
        )
    }
}

extension Components.Schemas.ConsoleJob {
    init(_ queued: Console.QueuedJob) throws {
        let job = queued.record
        self.init(
            id: job.id,
            kind: job.kind,
            state: try mapped(raw: queued.state?.rawValue ?? "done"),
            runAt: job.runAt,
            attempts: job.attempts,
            maxAttempts: job.maxAttempts,
            dedupeKey: job.dedupeKey,
            lastError: job.lastError,
            leaseOwner: job.leaseOwner,
            leaseExpiresAt: job.leaseExpiresAt
        )
    }
}

extension Components.Schemas.ConsoleDelivery {
    init(_ entry: DeliveryLogEntry) throws {
        self.init(
            id: entry.attempt.id,
            notificationId: entry.attempt.notification.rawValue,
            notificationType: entry.notificationType,
            userId: entry.user.rawValue,
            attempt: try .init(entry.attempt)
        )
    }
}

extension Components.Schemas.ConsoleCircle {
    init(_ circle: FitCircle, members: Int) throws {
        self.init(
            id: circle.id.rawValue,
            name: circle.name,
            metric: circle.metric.rawValue,
            privacy: try mapped(circle.privacy),
            timeZone: circle.timeZone,
            members: members,
            memberLimit: circle.memberLimit,
            ownerId: circle.ownerID.rawValue,
            createdAt: circle.createdAt,
            archivedAt: circle.archivedAt
        )
    }
}

extension Components.Schemas.ConsoleCompetition {
    init(_ challenge: Challenge, status: Challenge.Status, participants: Int, escrow: Int) throws {
        self.init(
            id: challenge.id.rawValue,
            name: challenge.name,
            _type: try mapped(challenge.type),
            status: try mapped(status),
            visibility: try mapped(challenge.visibility),
            creatorId: challenge.creatorID.rawValue,
            startsAt: challenge.startsAt,
            endsAt: challenge.endsAt,
            participantCount: participants,
            stake: challenge.stake,
            escrow: escrow,
            templateId: challenge.templateID
        )
    }
}
