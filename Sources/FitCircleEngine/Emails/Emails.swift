public import FitCircleCore
public import FitCircleStore
import Foundation

/// What email links do once clicked (spec 000, Feature 7; RFC 8058): one-click unsubscribe, the opening
/// pixel, tracked links that lead only where the email said; and the email part of the preferences.
public struct Emails: Sendable {
    let store: Store
    let catalog: NotificationCatalog
    let links: EmailLinks
    let clock: WallClock
    let analytics: EventRecorder

    public init(
        store: Store,
        catalog: NotificationCatalog,
        links: EmailLinks,
        clock: WallClock,
        analytics: EventRecorder
    ) {
        self.store = store
        self.catalog = catalog
        self.links = links
        self.clock = clock
        self.analytics = analytics
    }

    /// What an unsubscribe link stops: a type's emails to an address.
    public struct Unsubscription: Equatable, Sendable {
        public var type: String
        /// The type's title, as the emails showed it.
        public var title: String
        public var address: String
    }

    /// What `token` would unsubscribe from, for the confirmation page; a token this server did not make,
    /// or one for a type that cannot be unsubscribed from, is refused.
    public func unsubscription(token: String) async throws -> Unsubscription {
        let (user, kind) = try self.unsubscribeClaim(token)
        guard let account = try await self.store.read({ tx in try await tx.users.find(user) }) else {
            throw DomainError.notFound(resource: "user", id: user.rawValue)
        }
        return Unsubscription(type: kind.type, title: kind.title, address: account.email)
    }

    /// Turns the type's emails off for the token's user at once (no session: the signed token is the
    /// authority); doing it twice is harmless.
    public func unsubscribe(token: String) async throws -> Unsubscription {
        let (user, kind) = try self.unsubscribeClaim(token)
        let now = self.clock.now()
        let address = try await self.store.transaction { tx -> String in
            guard let account = try await tx.users.locked(user) else {
                throw DomainError.notFound(resource: "user", id: user.rawValue)
            }
            var preferences = try await tx.notifications.preferences(of: user) ?? .defaults
            preferences.types[kind.type, default: [:]][.email] = false
            try await tx.notifications.save(preferences, of: user, at: now)
            try await self.analytics.record(
                .emailUnsubscribed,
                key: kind.type,
                of: account,
                at: now,
                properties: ["type": .string(kind.type)],
                in: tx
            )
            return account.email
        }
        return Unsubscription(type: kind.type, title: kind.title, address: address)
    }

    /// An invitation emailed to an address, as its page shows it.
    public struct EmailedInvitation: Equatable, Sendable {
        public var invitation: CircleInvitation
        public var circle: String
        public var inviter: String
        /// Where the app opens it (the `circle_invitation` type's deep link), if the profile has one.
        public var deepLink: String?
        public var pending: Bool
        /// The day it lapses, in the circle's home zone (the invitee has none yet).
        public var lapsesOn: LocalDate
    }

    /// What an invitation link shows; a token this server did not make is refused.
    public func invitation(token: String) async throws -> EmailedInvitation {
        guard case .invitation(let id)? = self.links.claim(of: token) else {
            throw ValidationError(field: "token", reason: "is not an invitation link of this server")
        }
        let now = self.clock.now()
        let found = try await self.store.read { tx -> EmailedInvitation? in
            guard let invitation = try await tx.circles.invitation(id),
                let circle = try await tx.circles.circle(invitation.circleID),
                let inviter = try await tx.users.find(invitation.invitedBy)
            else { return nil }
            return EmailedInvitation(
                invitation: invitation,
                circle: circle.name,
                inviter: inviter.profile.displayName,
                deepLink: self.catalog[RaisedType.circleInvitation]?.deepLink?.replacingOccurrences(
                    of: "{invitationId}",
                    with: id.rawValue
                ),
                pending: invitation.isPending(at: now) && !circle.isArchived,
                lapsesOn: LocalDate(invitation.expiresAt, in: circle.zone)
            )
        }
        guard let found else { throw DomainError.notFound(resource: "invitation", id: id.rawValue) }
        return found
    }

    private func unsubscribeClaim(_ token: String) throws -> (User.ID, NotificationType) {
        guard case .unsubscribe(let user, let type)? = self.links.claim(of: token), let kind = self.catalog[type],
            !kind.critical
        else {
            throw ValidationError(field: "token", reason: "is not an unsubscribe link of this server")
        }
        return (user, kind)
    }

    /// Records that an email was opened; a token that is not one of this server's opening pixels records
    /// nothing (the pixel is served either way).
    public func opened(token: String) async throws {
        guard case .open(let notification)? = self.links.claim(of: token) else { return }
        let now = self.clock.now()
        try await self.store.transaction { tx in
            guard try await tx.deliveries.recordEmailOpened(notification, at: now),
                let entry = try await tx.deliveries.emailLogEntry(of: notification),
                let account = try await tx.users.find(entry.user)
            else { return }
            try await self.analytics.record(
                .emailOpened,
                key: notification.rawValue,
                of: account,
                at: now,
                properties: ["type": .string(entry.type)],
                in: tx
            )
        }
    }

    /// Records a click and answers where the link leads: only a destination the email itself carried, so
    /// the tracker is no open redirect.
    public func click(token: String) async throws -> String {
        guard case .click(let notification, let index)? = self.links.claim(of: token) else {
            throw ValidationError(field: "token", reason: "is not a link of this server's emails")
        }
        return try await self.store.transaction { tx in
            guard let entry = try await tx.deliveries.emailLogEntry(of: notification),
                entry.links.indices.contains(index)
            else {
                throw DomainError.notFound(resource: "email link", id: token)
            }
            let now = self.clock.now()
            try await tx.deliveries.recordEmailClicked(notification, at: now)
            if let account = try await tx.users.find(entry.user) {
                try await self.analytics.record(
                    .emailClicked,
                    key: "\(notification.rawValue):\(index)",
                    of: account,
                    at: now,
                    properties: ["type": .string(entry.type)],
                    in: tx
                )
            }
            return entry.links[index]
        }
    }

    public func preferences(of user: User.ID) async throws -> EmailPreferences {
        EmailPreferences(
            try await self.store.read { tx in try await tx.notifications.preferences(of: user) } ?? .defaults,
            catalog: self.catalog
        )
    }

    /// Applies `change` to the stored preferences under the user's lock: concurrent saves each keep theirs.
    public func update(_ change: EmailPreferences.Change, of user: User.ID) async throws -> EmailPreferences {
        let now = self.clock.now()
        let updated = try await self.store.transaction { tx in
            guard let account = try await tx.users.locked(user) else {
                throw DomainError.notFound(resource: "user", id: user.rawValue)
            }
            let before = try await tx.notifications.preferences(of: user) ?? .defaults
            let preferences = try change.applied(to: before, catalog: self.catalog)
            try await tx.notifications.save(preferences, of: user, at: now)
            if preferences != before {
                try await self.analytics.record(
                    .preferenceChanged,
                    key: "emails:\(now.timeIntervalSince1970)",
                    of: account,
                    at: now,
                    properties: [
                        "scope": .string("emails"),
                        "allOff": .boolean(!preferences.push && !preferences.email && !preferences.inApp),
                    ],
                    in: tx
                )
            }
            return preferences
        }
        return EmailPreferences(updated, catalog: self.catalog)
    }
}
