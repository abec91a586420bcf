public import FitCircleCore
public import FitCircleStore
public import Foundation

/// Reading and editing the caller's own profile (spec 004, Requirements 4 and 5).
public struct Profiles: Sendable {
    let store: Store
    let blobs: any BlobStore
    let rules: Rules
    let ids: IDGenerator
    let clock: WallClock

    public init(store: Store, blobs: any BlobStore, rules: Rules, ids: IDGenerator, clock: WallClock) {
        self.store = store
        self.blobs = blobs
        self.rules = rules
        self.ids = ids
        self.clock = clock
    }

    /// The caller's account as stored now.
    public func user(_ id: User.ID) async throws -> User {
        try await self.store.read { tx in
            guard let user = try await tx.users.find(id) else {
                throw DomainError.notFound(resource: "user", id: id.rawValue)
            }
            return user
        }
    }

    /// Replaces the profile with `input` when every field is valid; otherwise nothing changes. Finishing
    /// onboarding raises the welcome notification (spec 000's email table), once; a new time zone plans the
    /// rest of the day's reminders where the user now is.
    public func update(_ id: User.ID, with input: ProfileInput) async throws -> User {
        try await self.save(id) { profile, limits, now in try input.applied(to: profile, limits: limits, now: now) }
    }

    /// Changes the fields `change` gives and keeps the others, under the same rules as `update`.
    public func change(_ id: User.ID, with change: ProfileChange) async throws -> User {
        try await self.save(id) { profile, limits, now in try change.applied(to: profile, limits: limits, now: now) }
    }

    private func save(
        _ id: User.ID,
        _ edit: @escaping @Sendable (UserProfile, RuleProfile.Limits, Date) throws -> UserProfile
    ) async throws -> User {
        let now = self.clock.now()
        return try await self.store.transaction { tx in
            guard var user = try await tx.users.locked(id) else {
                throw DomainError.notFound(resource: "user", id: id.rawValue)
            }
            let was = user.profile
            user.profile = try edit(user.profile, self.rules.base.limits, now)
            try await tx.users.save(user.profile, of: id, at: now)
            if !was.isOnboarded && user.profile.isOnboarded {
                try await tx.enqueue([try await self.welcome(user, in: tx, now: now)].compactMap { $0 }, at: now)
            }
            if was.timeZone != user.profile.timeZone {
                try await ReminderPlanner.planRestOfToday(for: id, rules: self.rules, at: now, in: tx)
            }
            return user
        }
    }

    /// The welcome, with the first step goal the user will see.
    private func welcome(_ user: User, in tx: Transaction, now: Date) async throws -> JobRecord? {
        let level = (try await tx.training.settings(of: user.id) ?? .defaults).level
        let steps = GoalPlanner.dailySteps(
            on: user.localDate(at: now),
            accountDay: 1,
            baseline: .of(user.profile, level: level),
            recent: [],
            policy: try await self.rules.of(user, in: tx, at: now).goals.steps
        )
        let candidate = NotificationCandidate(
            type: .welcome,
            dedupeKey: "welcome",
            data: ["name": user.profile.displayName, "steps": NotificationCopy.count(Int(steps.target))]
        )
        return try Notifications.raising(
            candidate,
            for: user.id,
            catalog: self.rules.base.notifications,
            ids: self.ids,
            at: now
        )
    }

    /// Stores a new profile photo, without its metadata (EXIF's GPS position above all). The bytes must be a
    /// well-formed JPEG or PNG image of at most 5 MB.
    public func setPhoto(of id: User.ID, data: Data) async throws -> User {
        guard data.count <= ImageFormat.maximumPhotoBytes else {
            throw DomainError.payloadTooLarge(limit: ImageFormat.maximumPhotoBytes)
        }
        guard let format = ImageFormat.detect(data) else {
            throw DomainError.unsupportedMediaType(accepted: ImageFormat.allCases.map(\.contentType))
        }
        let image: [UInt8]
        do {
            image = try ImageMetadata.stripped(Array(data), format: format)
        } catch {
            throw ValidationError(field: "body", reason: "is not a well-formed \(format.rawValue.uppercased()) image")
        }
        // A new key per upload: a cached old photo is never served for the new one, and the swap is atomic.
        let key = "photos/\(id.rawValue)/\(IDGenerator(clock: self.clock).uuidV7().lowercased())"
        try await self.blobs.put(Data(image), contentType: format.contentType, key: key)
        let now = self.clock.now()
        let (user, previousKey) = try await self.store.transaction { tx in
            guard var user = try await tx.users.find(id) else {
                throw DomainError.notFound(resource: "user", id: id.rawValue)
            }
            let previous = user.profile.photoKey
            user.profile.photoKey = key
            try await tx.users.save(user.profile, of: id, at: now)
            return (user, previous)
        }
        if let previousKey {
            try? await self.blobs.delete(previousKey)
        }
        return user
    }

    /// The user's profile photo, if they have one.
    public func photo(of id: User.ID) async throws -> Blob? {
        let user = try await self.user(id)
        guard let key = user.profile.photoKey else { return nil }
        return try await self.blobs.get(key)
    }

    /// Someone's photo as `viewer` may see it (`ProfileAccess`, by the photo's audience); anyone else is
    /// told there is none.
    public func photo(of person: User.ID, seenBy viewer: User.ID) async throws -> Blob? {
        let photo = try await self.store.read { tx -> PersonPhoto? in
            guard let user = try await tx.users.find(person) else { return nil }
            let relationship = try await Self.standing(of: viewer, to: person, in: tx).relationship
            return ProfileAccess.mayView(photo: user.profile.photo, relationship) ? user.profile.photo : nil
        }
        guard let photo else { return nil }
        return try await self.blobs.get(photo.key)
    }

    /// How `viewer` stands to `person`: the friend edge, and the relationship `ProfileAccess` asks about.
    /// Someone who blocked the viewer is a stranger to them, whatever else they share.
    static func standing(of viewer: User.ID, to person: User.ID, in tx: Transaction) async throws -> (
        edge: FriendEdge, relationship: ProfileAccess.Relationship
    ) {
        guard person != viewer else { return (.strangers, ProfileAccess.Relationship(isSelf: true)) }
        let edge = try await tx.friends.edge(from: viewer, to: person)
        guard FriendAccess.decide(.find, isSelf: false, edge) == .allowed else {
            return (edge, ProfileAccess.Relationship(isSelf: false, blocked: true))
        }
        return (
            edge,
            ProfileAccess.Relationship(
                isSelf: false,
                isFriend: edge.areFriends,
                sharesCircle: try await tx.circles.sharesCircle(person, viewer)
            )
        )
    }
}
