public import FitCircleCore
public import FitCircleStore
import Foundation

/// A circle's members: who they are and what others see of them, invitations, joining, leaving, removal
/// and roles.
extension Circles {
    /// The current members, in the order they joined (members, or anyone for a public circle), each with
    /// their weights only where the member lets the viewer see them, a page at a time (`after`: the last of the
    /// page before; `next` is this page's last when there may be more). A page may hold fewer than `limit` and
    /// still not be the last: members who blocked the caller are left out of it.
    public func members(of id: FitCircle.ID, for user: User.ID, after last: User.ID?, limit: Int) async throws -> (
        items: [CircleMemberRow], next: User.ID?
    ) {
        try PageLimit.check(limit, within: Self.memberPageSizes)
        return try await self.store.read { tx in
            _ = try await self.allowed(.read, id, by: user, in: tx)
            let rows = try await tx.circles.members(of: id, after: last, limit: limit)
            let naming = try await Naming.of(user, for: rows.flatMap(Self.audiences), in: tx)
            // Someone who blocked the caller is not listed to them (a block acts everywhere).
            return (
                rows.filter { !naming.blockers.contains($0.membership.userID) }.map { Self.shown($0, to: naming) },
                rows.count == limit ? rows.last?.membership.userID : nil
            )
        }
    }

    /// How many members a page may hold (of the members or of the day's claims), and holds when none is asked.
    static let memberPageSizes = 1...500
    public static let memberPageSize = 100

    /// A member row as the viewer may see it: the starting and target weight are the member's weight, and
    /// the photo has its audience. (The list names everyone in the circle: a board-name opt-out keeps
    /// one's results from being named, not one's membership.)
    static func audiences(of row: CircleMemberRow) -> [Audience] {
        [row.weightAudience] + (row.photo.map { [$0.audience] } ?? [])
    }

    static func shown(_ row: CircleMemberRow, to naming: Naming) -> CircleMemberRow {
        var shown = row
        let relationship = naming.relationship(to: row.membership.userID)
        if !ProfileAccess.mayView(photo: row.photo, relationship) { shown.photo = nil }
        if !ProfileAccess.mayView(row.weightAudience, relationship) {
            shown.membership.startingWeightKg = nil
            shown.membership.targetWeightKg = nil
        }
        return shown
    }

    /// Invites an account (by id) or an address (by email). An invitation still pending for them is answered
    /// again (`created` false). Invited accounts hear of it (`circle_invitation`). The answer to an invitation by email is the
    /// same whether or not the address has an account, and invitations are capped per sender and per
    /// recipient a day (`InvitationLimits`, 429): they reach people who never chose the sender.
    public func invite(to id: FitCircle.ID, user invitee: User.ID?, email: String?, by user: User.ID) async throws
        -> (invitation: CircleInvitation, created: Bool)
    {
        let now = self.clock.now()
        var validator = Validator()
        validator.check((invitee == nil) != (email == nil), "userId", "give either userId or email")
        let address = email?.trimmingCharacters(in: .whitespaces).lowercased()
        if let address {
            validator.check(
                Accounts.looksLikeEmail(address),
                "email",
                "must be an email address such as ana@example.com"
            )
        }
        try validator.throwIfInvalid()
        return try await self.store.transaction { tx in
            let circle = try await self.allowed(.invite, id, by: user, in: tx, locked: true).circle
            guard !circle.isArchived else {
                throw DomainError.refused(Refusal(.circleArchived, "The circle is archived."))
            }
            var account: User?
            if let invitee {
                guard let found = try await tx.users.find(invitee) else {
                    throw DomainError.notFound(resource: "user", id: invitee.rawValue)
                }
                account = found
                if try await tx.circles.membership(of: invitee, in: id) != nil {
                    throw DomainError.refused(
                        Refusal(.alreadyMember, "\(found.profile.displayName) is already a member.")
                    )
                }
            } else if let address {
                account = try await tx.users.find(withEmail: address)
            }
            if let account, try await tx.circles.isBanned(account.id, from: id) {
                throw DomainError.refused(
                    Refusal(
                        .banned,
                        "This person was removed from the circle: lift the ban first (DELETE /api/fitcircles/\(id)/bans/{userId})."
                    )
                )
            }
            if let pending = try await tx.circles.pendingInvitation(to: id, user: account?.id, email: address, at: now)
            {
                return (pending, false)
            }
            let since = now.addingTimeInterval(-InvitationLimits.window)
            for (counted, limit, whose) in [
                (
                    try await tx.circles.invitationCount(sentBy: user, since: since), InvitationLimits.sentPerDay,
                    "You have sent"
                ),
                (
                    try await tx.circles.invitationCount(receivedBy: account?.id, email: address, since: since),
                    InvitationLimits.receivedPerDay, "This person has received"
                ),
            ] where counted.count >= limit {
                let retry = (counted.oldest ?? now).addingTimeInterval(InvitationLimits.window).timeIntervalSince(now)
                throw DomainError.rateLimited(
                    retryAfter: max(1, Int(retry.rounded(.up))),
                    reason: "\(whose) \(limit) invitations in the last 24 hours; try again later."
                )
            }
            let invitation = CircleInvitation(
                id: self.ids.make(),
                circleID: id,
                userID: account?.id,
                email: address,
                invitedBy: user,
                createdAt: now
            )
            try await tx.circles.insert(invitation)
            if account == nil {
                // Nobody holds the address yet: an email with the invitation's page (spec 000 F7).
                try await tx.enqueue([try Deliveries.emailing(invitation.id, ids: self.ids, at: now)], at: now)
            }
            if let account, let inviter = try await tx.users.find(user) {
                try await Self.tell(
                    account.id,
                    of: invitation,
                    to: circle,
                    from: inviter,
                    catalog: self.rules.base.notifications,
                    ids: self.ids,
                    in: tx,
                    at: now
                )
            }
            return (invitation, true)
        }
    }

    /// Raises `circle_invitation` to the invited account (once per invitation).
    static func tell(
        _ account: User.ID,
        of invitation: CircleInvitation,
        to circle: FitCircle,
        from inviter: User,
        catalog: NotificationCatalog,
        ids: IDGenerator,
        in tx: Transaction,
        at now: Date
    ) async throws {
        let candidate = NotificationCandidate(
            type: .circleInvitation,
            dedupeKey: "circle_invitation:\(invitation.id)",
            data: [
                "inviter": inviter.profile.displayName, "circle": circle.name, "circleId": circle.id.rawValue,
                "invitationId": invitation.id.rawValue,
            ],
            actor: inviter.id
        )
        if let job = try Notifications.raising(candidate, for: account, catalog: catalog, ids: ids, at: now) {
            try await tx.enqueue([job], at: now)
        }
    }

    /// A new account hears of the invitations its address received before it existed (they were emailed).
    static func tellNewAccount(
        _ account: User,
        catalog: NotificationCatalog,
        ids: IDGenerator,
        in tx: Transaction,
        at now: Date
    ) async throws {
        for invitation in try await tx.circles.pendingInvitations(toEmail: account.email, at: now) {
            guard let circle = try await tx.circles.circle(invitation.circleID), !circle.isArchived,
                let inviter = try await tx.users.find(invitation.invitedBy)
            else { continue }
            try await Self.tell(
                account.id,
                of: invitation,
                to: circle,
                from: inviter,
                catalog: catalog,
                ids: ids,
                in: tx,
                at: now
            )
        }
    }

    /// Joins a circle with its code or an invitation addressed to the caller; a weight-loss circle needs
    /// the member's target. Refused when the circle is archived or full. Joining again (a retry whose answer
    /// was lost, with the code or the invitation it used) answers the circle as it is and changes nothing.
    public func join(code: String?, invitation: CircleInvitation.ID?, weights: WeightGoalInput, by user: User.ID)
        async throws -> View
    {
        let now = self.clock.now()
        guard (code == nil) != (invitation == nil) else {
            throw ValidationError(field: "joinCode", reason: "give either joinCode or invitationId")
        }
        let (view, event): (View, BoardEvent?) = try await self.store.transaction { tx in
            guard let account = try await tx.users.locked(user) else {
                throw DomainError.notFound(resource: "user", id: user.rawValue)
            }
            var accepted: CircleInvitation?
            let found: FitCircle?
            if let code {
                found = try await tx.circles.circle(
                    withJoinCode: code.trimmingCharacters(in: .whitespaces).uppercased()
                )
            } else if let invitation {
                let invited = try await tx.circles.invitation(invitation)
                // An invitation used already still lets the one who used it in (a retry): they are a member.
                var used = false
                if let invited { used = try await tx.circles.membership(of: user, in: invited.circleID) != nil }
                guard let invited, invited.isAddressed(to: user, email: account.email),
                    invited.isPending(at: now) || used
                else {
                    throw DomainError.notFound(resource: "invitation", id: invitation.rawValue)
                }
                accepted = invited.isPending(at: now) ? invited : nil
                found = try await tx.circles.circle(invited.circleID)
            } else {
                found = nil
            }
            guard let found, let circle = try await tx.circles.locked(found.id) else {
                throw DomainError.notFound(resource: "circle", id: code ?? "")
            }
            guard !circle.isArchived else {
                throw DomainError.refused(Refusal(.circleArchived, "The circle is archived."))
            }
            if let membership = try await tx.circles.membership(of: user, in: circle.id) {
                let members = try await tx.circles.memberCount(of: circle.id)
                return (View(circle: circle, role: membership.role, memberCount: members), nil)
            }
            try CircleAccess.decide(.join, try await self.facts(.join, circle, membership: nil, of: user, in: tx))
                .require("circle", circle.id.rawValue)
            let members = try await tx.circles.memberCount(of: circle.id)
            guard members < circle.memberLimit else {
                throw DomainError.refused(
                    Refusal(
                        .full,
                        "The circle is full (\(circle.memberLimit) members).",
                        facts: ["limit": .number(circle.memberLimit)]
                    )
                )
            }
            let goal = try weights.validated(
                for: circle.metric,
                profileWeightKg: account.profile.weightKg,
                limits: self.rules.base.limits.weightKg
            )
            try await tx.circles.insert(
                CircleMembership(
                    circleID: circle.id,
                    userID: user,
                    role: .member,
                    joinedAt: now,
                    startingWeightKg: goal.starting,
                    targetWeightKg: goal.target
                )
            )
            if circle.setsGoals { try await self.goals.followCircles(of: user, in: tx) }
            if let accepted { try await tx.circles.acceptInvitation(accepted.id, by: user, at: now) }
            if let pending = try await tx.circles.pendingInvitation(
                to: circle.id,
                user: user,
                email: account.email,
                at: now
            ) {
                try await tx.circles.acceptInvitation(pending.id, by: user, at: now)
            }
            let item = FeedItem(
                id: self.ids.make(),
                circleID: circle.id,
                kind: .joined,
                actorID: user,
                text: FeedText.joined(name: account.profile.displayName),
                data: ["name": account.profile.displayName],
                createdAt: now
            )
            let added = try await tx.feed.insert(
                item,
                dedupeKey: "joined:\(user):\(Int(now.timeIntervalSince1970 * 1_000))"
            )
            let event = self.events.event(circle.id, changes: [], ranks: [], feed: added ? [item] : [])
            try await self.events.send([event], in: tx)
            return (View(circle: circle, role: .member, memberCount: members + 1), event)
        }
        if let event { self.events.publish([event]) }
        return view
    }

    /// Leaves the circle. An owner who leaves hands it to the longest-standing admin, else member; the last
    /// member to leave archives it.
    public func leave(_ id: FitCircle.ID, by user: User.ID) async throws {
        let now = self.clock.now()
        try await self.store.transaction { tx in
            let found = try await self.allowed(.participate, id, by: user, in: tx, locked: true)
            guard let membership = found.membership else { return }
            try await self.depart(user, as: membership.role, from: found.circle, in: tx, at: now)
        }
    }

    /// Ends the member's stint in the locked circle; an owner's departure hands it over or archives it.
    func depart(_ user: User.ID, as role: CircleRole, from circle: FitCircle, in tx: Transaction, at now: Date)
        async throws
    {
        var circle = circle
        try await tx.circles.endMembership(of: user, in: circle.id, at: now)
        if circle.setsGoals { try await self.goals.followCircles(of: user, in: tx) }
        guard role == .owner else { return }
        if let heir = CircleMembership.heir(among: try await tx.circles.members(of: circle.id).map(\.membership)) {
            try await tx.circles.setRole(.owner, of: heir.userID, in: circle.id)
            circle.ownerID = heir.userID
        } else {
            circle.archivedAt = now
        }
        try await tx.circles.update(circle, at: now)
    }

    /// Removes a member: the owner removes anyone else, an admin removes members. The removal sticks: the
    /// person may not rejoin, by code or invitation, until a manager lifts the ban, and the join code they
    /// knew is replaced.
    public func remove(_ member: User.ID, from id: FitCircle.ID, by user: User.ID) async throws {
        let now = self.clock.now()
        try await self.store.transaction { tx in
            let found = try await self.allowed(.remove(.member), id, by: user, in: tx, locked: true)
            guard let removed = try await tx.circles.membership(of: member, in: id) else {
                throw DomainError.notFound(resource: "member", id: member.rawValue)
            }
            guard member != user else {
                throw DomainError.refused(Refusal(.wrongState, "Leave the circle instead of removing yourself."))
            }
            try CircleAccess.decide(
                .remove(removed.role),
                CircleAccess.Facts(privacy: found.circle.privacy, role: found.membership?.role)
            )
            .require("circle", id.rawValue)
            try await tx.circles.endMembership(of: member, in: id, at: now)
            if found.circle.setsGoals { try await self.goals.followCircles(of: member, in: tx) }
            try await tx.circles.ban(member, from: id, by: user, at: now)
            try await tx.circles.setJoinCode(Self.joinCode(), of: id)
        }
    }

    /// Sets a member's role (the owner): admin or member; naming another member owner hands the circle over
    /// and makes the previous owner an admin.
    public func setRole(_ role: CircleRole, of member: User.ID, in id: FitCircle.ID, by user: User.ID) async throws
        -> CircleMemberRow
    {
        let now = self.clock.now()
        return try await self.store.transaction { tx in
            var circle = try await self.allowed(.setRoles, id, by: user, in: tx, locked: true).circle
            guard var target = try await tx.circles.member(member, of: id) else {
                throw DomainError.notFound(resource: "member", id: member.rawValue)
            }
            guard member != user else {
                throw DomainError.refused(Refusal(.wrongState, "Name another owner to step down."))
            }
            if role == .owner {
                try await tx.circles.setRole(.admin, of: user, in: id)
                circle.ownerID = member
                try await tx.circles.update(circle, at: now)
            }
            try await tx.circles.setRole(role, of: member, in: id)
            target.membership.role = role
            return Self.shown(target, to: try await Naming.of(user, for: Self.audiences(of: target), in: tx))
        }
    }

    static func joinCode() -> String {
        var generator = SystemRandomNumberGenerator()
        let alphabet = FitCircle.joinCodeAlphabet
        return String(
            (0..<FitCircle.joinCodeLength).map { _ in alphabet[Int.random(in: alphabet.indices, using: &generator)] }
        )
    }
}
