public import FitCircleCore
public import FitCircleStore
import Foundation

/// FitCircles and who is in them (spec 000, Feature 3): create, edit, archive, invite, join by invitation
/// or code, leave, remove, roles. Membership is kept over time (each stint with its join and leave instants);
/// only members claim days, so a period's board holds those who were members when they claimed. A private
/// circle is invisible to those who are neither members nor invited: they get 404, not 403.
public struct Circles: Sendable {
    let store: Store
    let profile: RuleProfile
    let ids: IDGenerator
    let clock: WallClock
    public let events: CircleEvents

    public init(store: Store, profile: RuleProfile, ids: IDGenerator, clock: WallClock, events: CircleEvents) {
        self.store = store
        self.profile = profile
        self.ids = ids
        self.clock = clock
        self.events = events
    }

    var keeper: BoardKeeper { BoardKeeper(indexes: self.events.indexes, weekStart: self.profile.week.startsOn) }

    /// A circle as one user sees it.
    public struct View: Equatable, Sendable {
        public var circle: FitCircle
        /// The viewer's role; nil when they are not a member.
        public var role: CircleRole?
        public var memberCount: Int
    }

    // MARK: Circles

    /// Creates a circle owned by `user`, its first member; the zone defaults to the creator's.
    public func create(_ input: CircleInput, weights: WeightGoalInput, by user: User.ID) async throws -> View {
        let now = self.clock.now()
        return try await self.store.transaction { tx in
            guard let creator = try await tx.lockedUser(user) else { throw DomainError.notFound(resource: "user", id: user.rawValue) }
            let valid = try input.validated(defaultTimeZone: creator.profile.timeZone, now: now)
            let goal = try weights.validated(for: valid.metric, profileWeightKg: creator.profile.weightKg, limits: self.profile.limits.weightKg)
            let circle = FitCircle(
                id: self.ids.make(), name: valid.name, description: valid.description, metric: valid.metric, startDate: valid.startDate,
                endDate: valid.endDate, timeZone: valid.timeZone, privacy: valid.privacy, memberLimit: valid.memberLimit, ownerID: user,
                joinCode: Self.joinCode(), createdAt: now)
            try await tx.insert(circle)
            try await tx.insert(
                CircleMembership(circleID: circle.id, userID: user, role: .owner, joinedAt: now, startingWeightKg: goal.starting, targetWeightKg: goal.target))
            return View(circle: circle, role: .owner, memberCount: 1)
        }
    }

    /// The circle, for a member, anyone when it is public, or someone invited to it.
    public func circle(_ id: FitCircle.ID, for user: User.ID) async throws -> View {
        try await self.store.read { tx in
            let (circle, membership, count) = try await self.visible(id, to: user, in: tx)
            return View(circle: circle, role: membership?.role, memberCount: count)
        }
    }

    /// The circles the user is in now, newest first.
    public func circles(of user: User.ID) async throws -> [View] {
        try await self.store.read { tx in
            var views: [View] = []
            for (circle, role) in try await tx.circles(of: user) {
                views.append(View(circle: circle, role: role, memberCount: try await tx.memberCount(of: circle.id)))
            }
            return views
        }
    }

    /// Edits the circle (owners and admins). Once the competition has begun its metric, start and zone stay.
    public func update(_ id: FitCircle.ID, with input: CircleInput, by user: User.ID) async throws -> View {
        let now = self.clock.now()
        return try await self.store.transaction { tx in
            let (stored, membership) = try await self.managed(id, by: user, in: tx)
            let valid = try input.validated(defaultTimeZone: stored.timeZone, now: now)
            let members = try await tx.memberCount(of: id)
            let circle = try stored.edited(
                with: valid, startGiven: input.startDate != nil, today: stored.today(at: now),
                members: members)
            try await tx.update(circle, at: now)
            return View(circle: circle, role: membership.role, memberCount: members)
        }
    }

    /// Archives the circle (its owner): it stays readable, and nobody joins, submits or is invited any more.
    public func archive(_ id: FitCircle.ID, by user: User.ID) async throws {
        let now = self.clock.now()
        try await self.store.transaction { tx in
            var (circle, membership) = try await self.managed(id, by: user, in: tx)
            guard membership.role == .owner else { throw DomainError.forbidden(reason: "Only the circle's owner may archive it.") }
            circle.archivedAt = now
            try await tx.update(circle, at: now)
        }
    }

    // MARK: Members

    /// The current members, in the order they joined (members, or anyone for a public circle).
    public func members(of id: FitCircle.ID, for user: User.ID) async throws -> [CircleMemberRow] {
        try await self.store.read { tx in
            _ = try await self.visible(id, to: user, in: tx)
            return try await tx.members(of: id)
        }
    }

    /// Invites an account (by id) or an address (by email; it names the account when one has it). An
    /// invitation still pending for them is answered again. Invited accounts hear of it (`circle_invitation`).
    public func invite(to id: FitCircle.ID, user invitee: User.ID?, email: String?, by user: User.ID) async throws -> CircleInvitation {
        let now = self.clock.now()
        var validator = Validator()
        validator.check((invitee == nil) != (email == nil), "userId", "give either userId or email")
        let address = email?.trimmingCharacters(in: .whitespaces).lowercased()
        if let address { validator.check(Accounts.looksLikeEmail(address), "email", "must be an email address such as ana@example.com") }
        try validator.throwIfInvalid()
        return try await self.store.transaction { tx in
            let (circle, _) = try await self.managed(id, by: user, in: tx)
            guard !circle.isArchived else { throw DomainError.conflict(reason: "The circle is archived.") }
            var account: User?
            if let invitee {
                guard let found = try await tx.user(invitee) else { throw DomainError.notFound(resource: "user", id: invitee.rawValue) }
                account = found
            } else if let address {
                account = try await tx.user(withEmail: address)
            }
            if let account, try await tx.membership(of: account.id, in: id) != nil {
                throw DomainError.conflict(reason: "\(account.profile.displayName) is already a member.")
            }
            if let pending = try await tx.pendingInvitation(to: id, user: account?.id, email: address) { return pending }
            let invitation = CircleInvitation(
                id: self.ids.make(), circleID: id, userID: account?.id, email: account == nil ? address : nil, invitedBy: user, createdAt: now)
            try await tx.insert(invitation)
            if let account, let inviter = try await tx.user(user) {
                let candidate = NotificationCandidate(
                    type: "circle_invitation", dedupeKey: "circle_invitation:\(invitation.id)",
                    data: ["inviter": inviter.profile.displayName, "circle": circle.name, "invitationId": invitation.id.rawValue])
                if let job = try Notifications.raising(candidate, for: account.id, catalog: self.profile.notifications, ids: self.ids, at: now) {
                    try await tx.enqueue([job], at: now)
                }
            }
            return invitation
        }
    }

    /// Joins a circle with its code or an invitation addressed to the caller; a weight-loss circle needs
    /// the member's target. Refused when the circle is archived, full, or the caller is already in it.
    public func join(code: String?, invitation: CircleInvitation.ID?, weights: WeightGoalInput, by user: User.ID) async throws -> View {
        let now = self.clock.now()
        guard (code == nil) != (invitation == nil) else { throw ValidationError(field: "code", reason: "give either code or invitationId") }
        let (view, event) = try await self.store.transaction { tx in
            guard let account = try await tx.lockedUser(user) else { throw DomainError.notFound(resource: "user", id: user.rawValue) }
            var accepted: CircleInvitation?
            let found: FitCircle?
            if let code {
                found = try await tx.circle(withJoinCode: code.trimmingCharacters(in: .whitespaces).uppercased())
            } else {
                let invited = try await tx.invitation(invitation!)
                guard let invited, invited.acceptedAt == nil, invited.userID == user || (invited.userID == nil && invited.email == account.email) else {
                    throw DomainError.notFound(resource: "invitation", id: invitation!.rawValue)
                }
                accepted = invited
                found = try await tx.circle(invited.circleID)
            }
            guard let found, let circle = try await tx.lockedCircle(found.id) else {
                throw DomainError.notFound(resource: "circle", id: code ?? "")
            }
            guard !circle.isArchived else { throw DomainError.conflict(reason: "The circle is archived.") }
            guard try await tx.membership(of: user, in: circle.id) == nil else { throw DomainError.conflict(reason: "You are already a member.") }
            let members = try await tx.memberCount(of: circle.id)
            guard members < circle.memberLimit else { throw DomainError.conflict(reason: "The circle is full (\(circle.memberLimit) members).") }
            let goal = try weights.validated(for: circle.metric, profileWeightKg: account.profile.weightKg, limits: self.profile.limits.weightKg)
            try await tx.insert(
                CircleMembership(circleID: circle.id, userID: user, role: .member, joinedAt: now, startingWeightKg: goal.starting, targetWeightKg: goal.target))
            if let accepted { try await tx.acceptInvitation(accepted.id, by: user, at: now) }
            if let pending = try await tx.pendingInvitation(to: circle.id, user: user, email: account.email) {
                try await tx.acceptInvitation(pending.id, by: user, at: now)
            }
            let item = FeedItem(
                id: self.ids.make(), circleID: circle.id, kind: .joined, actorID: user, text: FeedText.joined(name: account.profile.displayName),
                data: ["name": account.profile.displayName],
                createdAt: now)
            let added = try await tx.insert(item, dedupeKey: "joined:\(user):\(Int(now.timeIntervalSince1970 * 1_000))")
            let event = self.events.event(circle.id, changes: [], ranks: [], feed: added ? [item] : [])
            try await self.events.send([event], in: tx)
            return (View(circle: circle, role: .member, memberCount: members + 1), event)
        }
        self.events.publish([event])
        return view
    }

    /// Leaves the circle. An owner who leaves hands it to the longest-standing admin, else member; the last
    /// member to leave archives it.
    public func leave(_ id: FitCircle.ID, by user: User.ID) async throws {
        let now = self.clock.now()
        try await self.store.transaction { tx in
            guard var circle = try await tx.lockedCircle(id), let membership = try await tx.membership(of: user, in: id) else {
                throw DomainError.notFound(resource: "circle", id: id.rawValue)
            }
            try await tx.endMembership(of: user, in: id, at: now)
            guard membership.role == .owner else { return }
            if let heir = CircleMembership.heir(among: try await tx.members(of: id).map(\.membership)) {
                try await tx.setRole(.owner, of: heir.userID, in: id)
                circle.ownerID = heir.userID
            } else {
                circle.archivedAt = now
            }
            try await tx.update(circle, at: now)
        }
    }

    /// Removes a member: the owner removes anyone else, an admin removes members.
    public func remove(_ member: User.ID, from id: FitCircle.ID, by user: User.ID) async throws {
        let now = self.clock.now()
        try await self.store.transaction { tx in
            let (_, manager) = try await self.managed(id, by: user, in: tx)
            guard let removed = try await tx.membership(of: member, in: id) else { throw DomainError.notFound(resource: "member", id: member.rawValue) }
            guard member != user else { throw DomainError.conflict(reason: "Leave the circle instead of removing yourself.") }
            guard manager.role == .owner || removed.role == .member else {
                throw DomainError.forbidden(reason: "Only the owner may remove an admin or the owner.")
            }
            try await tx.endMembership(of: member, in: id, at: now)
        }
    }

    /// Sets a member's role (the owner): admin or member; naming another member owner hands the circle over
    /// and makes the previous owner an admin.
    public func setRole(_ role: CircleRole, of member: User.ID, in id: FitCircle.ID, by user: User.ID) async throws -> CircleMembership {
        let now = self.clock.now()
        return try await self.store.transaction { tx in
            var (circle, manager) = try await self.managed(id, by: user, in: tx)
            guard manager.role == .owner else { throw DomainError.forbidden(reason: "Only the circle's owner may change roles.") }
            guard var target = try await tx.membership(of: member, in: id) else { throw DomainError.notFound(resource: "member", id: member.rawValue) }
            guard member != user else { throw DomainError.conflict(reason: "Name another owner to step down.") }
            if role == .owner {
                try await tx.setRole(.admin, of: user, in: id)
                circle.ownerID = member
                try await tx.update(circle, at: now)
            }
            try await tx.setRole(role, of: member, in: id)
            target.role = role
            return target
        }
    }

    // MARK: Access

    /// The circle, the user's membership and the member count (one read), if the user may see the circle.
    func visible(_ id: FitCircle.ID, to user: User.ID, in tx: Transaction) async throws -> (FitCircle, CircleMembership?, memberCount: Int) {
        guard let found = try await tx.circle(id, seenBy: user) else { throw DomainError.notFound(resource: "circle", id: id.rawValue) }
        try await self.requireInvitation(to: found.circle, unless: found.membership, of: user, in: tx)
        return found
    }

    /// The same for reads outside a transaction (boards): from this node's memory when it holds the circle.
    func visible(_ id: FitCircle.ID, to user: User.ID) async throws -> (FitCircle, CircleMembership?, memberCount: Int) {
        guard let found = try await self.store.cachedCircle(id, seenBy: user) else { throw DomainError.notFound(resource: "circle", id: id.rawValue) }
        if found.membership == nil && found.circle.privacy == .private {
            try await self.store.read { tx in try await self.requireInvitation(to: found.circle, unless: found.membership, of: user, in: tx) }
        }
        return found
    }

    /// A private circle shows itself to its members and to those invited, to no one else (404, as if absent).
    private func requireInvitation(to circle: FitCircle, unless membership: CircleMembership?, of user: User.ID, in tx: Transaction) async throws {
        guard membership == nil && circle.privacy == .private else { return }
        let email = try await tx.user(user)?.email
        guard try await tx.pendingInvitation(to: circle.id, user: user, email: email) != nil else {
            throw DomainError.notFound(resource: "circle", id: circle.id.rawValue)
        }
    }

    /// The circle, locked, and the user's membership, when the user is its owner or an admin.
    private func managed(_ id: FitCircle.ID, by user: User.ID, in tx: Transaction) async throws -> (FitCircle, CircleMembership) {
        guard let circle = try await tx.lockedCircle(id) else { throw DomainError.notFound(resource: "circle", id: id.rawValue) }
        guard let membership = try await tx.membership(of: user, in: id) else {
            if circle.privacy == .private { throw DomainError.notFound(resource: "circle", id: id.rawValue) }
            throw DomainError.forbidden(reason: "Only the circle's owner and admins may do this.")
        }
        guard membership.role.manages else { throw DomainError.forbidden(reason: "Only the circle's owner and admins may do this.") }
        return (circle, membership)
    }

    static func joinCode() -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<FitCircle.joinCodeLength).map { _ in FitCircle.joinCodeAlphabet.randomElement(using: &generator)! })
    }
}
