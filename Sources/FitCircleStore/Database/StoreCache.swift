public import FitCircleCore
import Foundation
import Synchronization

/// What this node remembers of the database so that the hottest reads run no SQL: sessions with their
/// accounts (every authenticated request), and for circle boards the circle as a member sees it, its roster,
/// and people's names with their baseline ranks (`Store+Cached.swift`).
///
/// Every write of what these hold goes through the store's own statements, which note in their transaction
/// what they touched (`CacheTag`s); when it commits this node forgets the entries so tagged, and on
/// PostgreSQL the same transaction tells the other nodes (`NOTIFY`), which forget them as they hear it (a
/// transaction that fails forgets what it touched too: a failed COMMIT may still have committed). On
/// PostgreSQL the cache therefore serves only while this node listens: a node that could miss the others'
/// changes reads every time. A read that raced a change is not kept: each change moves the generation on,
/// and a fill begun under an older generation is dropped.
final class StoreCache: Sendable {
    /// This node, named in its messages so that it skips its own (it forgot at commit).
    let node = UUID().uuidString

    private struct State {
        var serving: Bool
        /// Moves on with every change of what the entries below are made of (not with a feed's).
        var generation: UInt64 = 0
        /// Moves on with every change of anything tagged: what `changedAt` and kept answers count in.
        var stamp: UInt64 = 0
        /// When each tag last changed, by `stamp`; a tag not here changed at `changedFloor` at the latest.
        var changedAt: [CacheTag: UInt64] = [:]
        var changedFloor: UInt64 = 0
        var sessions = TaggedMap<Session.ID, SessionEntry>()
        var circles = TaggedMap<CircleViewKey, CircleView>()
        var rosters = TaggedMap<FitCircle.ID, [User.ID]>()
        var people = TaggedMap<PersonKey, BoardPerson>()
        var blockers = TaggedMap<User.ID, Set<User.ID>>()
        /// Fewer: a set may hold 1,000 friends (`FriendLimits.maximumFriends`).
        var friends = TaggedMap<User.ID, Set<User.ID>>(capacity: 5_000)
        var challenges = TaggedMap<ChallengeViewKey, ChallengeView>()
        var challengeRosters = TaggedMap<Challenge.ID, [User.ID]>()

        /// Tags whose last change is remembered one by one; past it, all of them count as changed.
        static var changesRemembered: Int { 200_000 }

        mutating func forget(_ tags: Set<CacheTag>) {
            self.stamp &+= 1
            if self.changedAt.count + tags.count > Self.changesRemembered {
                self.changedAt.removeAll()
                self.changedFloor = self.stamp
            }
            for tag in tags { self.changedAt[tag] = self.stamp }
            // A feed's tags hold no entries: they leave the generation (and the boards' pages) alone.
            guard tags.contains(where: { !$0.isFeeds }) else { return }
            self.generation &+= 1
            self.sessions.forget(tags)
            self.circles.forget(tags)
            self.rosters.forget(tags)
            self.people.forget(tags)
            self.blockers.forget(tags)
            self.friends.forget(tags)
            self.challenges.forget(tags)
            self.challengeRosters.forget(tags)
        }

        mutating func forgetAll() {
            self.stamp &+= 1
            self.changedAt.removeAll()
            self.changedFloor = self.stamp
            self.generation &+= 1
            self.sessions.removeAll()
            self.circles.removeAll()
            self.rosters.removeAll()
            self.people.removeAll()
            self.blockers.removeAll()
            self.friends.removeAll()
            self.challenges.removeAll()
            self.challengeRosters.removeAll()
        }
    }

    struct SessionEntry: Sendable {
        var session: Session
        var user: User
    }

    struct CircleViewKey: Hashable, Sendable {
        var circle: FitCircle.ID
        var user: User.ID
    }

    /// A circle with one user's open stint in it and its member count.
    struct CircleView: Sendable {
        var circle: FitCircle
        var membership: CircleMembership?
        var memberCount: Int
    }

    struct ChallengeViewKey: Hashable, Sendable {
        var challenge: Challenge.ID
        var user: User.ID
    }

    /// A challenge with one user's row in it, its participant count and its escrow.
    struct ChallengeView: Sendable {
        var challenge: Challenge
        var participant: ChallengeParticipant?
        var participants: Int
        var escrow: Int
    }

    struct PersonKey: Hashable, Sendable {
        var user: User.ID
        var baseline: BoardID
    }

    /// What is kept of one read, to keep once the read is done.
    enum Entry: Sendable {
        case session(SessionEntry)
        case circle(CircleViewKey, CircleView)
        case roster(FitCircle.ID, [User.ID])
        case person(PersonKey, BoardPerson)
        /// Those who blocked a user, tagged with the user (a block or an unblock of them changes it).
        case blockers(User.ID, Set<User.ID>)
        /// A user's friends, tagged with the user (a friendship made or ended notes both). A friend who
        /// deletes their account stays in the set until then: an id that names nobody, never shown.
        case friends(User.ID, Set<User.ID>)
        case challenge(ChallengeViewKey, ChallengeView)
        /// The ids of a challenge's joined participants.
        case challengeRoster(Challenge.ID, [User.ID])
    }

    private let state: Mutex<State>

    /// - Parameter serving: whether it may serve from the start (one process: SQLite), or only once
    ///   `listening(true)` says this node hears the others (PostgreSQL).
    init(serving: Bool) {
        self.state = Mutex(State(serving: serving))
    }

    /// The generation a read that may be kept starts under; nil when the cache does not serve.
    func generation() -> UInt64? {
        self.state.withLock { $0.serving ? $0.generation : nil }
    }

    /// The stamp an answer kept outside the cache is read under (`unchanged(_:since:)`); nil when the cache
    /// does not serve.
    func stamp() -> UInt64? {
        self.state.withLock { $0.serving ? $0.stamp : nil }
    }

    /// Whether none of `tags` changed since `stamp` was read: an answer built from what they cover after
    /// reading it is still what a read would build.
    func unchanged(_ tags: some Sequence<CacheTag>, since stamp: UInt64) -> Bool {
        self.state.withLock { state in
            guard state.serving, state.changedFloor <= stamp else { return false }
            return tags.allSatisfy { (state.changedAt[$0] ?? 0) <= stamp }
        }
    }

    func session(_ id: Session.ID) -> SessionEntry? {
        self.state.withLock { $0.serving ? $0.sessions[id] : nil }
    }

    func circle(_ key: CircleViewKey) -> CircleView? {
        self.state.withLock { $0.serving ? $0.circles[key] : nil }
    }

    func roster(_ circle: FitCircle.ID) -> [User.ID]? {
        self.state.withLock { $0.serving ? $0.rosters[circle] : nil }
    }

    func blockers(of user: User.ID) -> Set<User.ID>? {
        self.state.withLock { $0.serving ? $0.blockers[user] : nil }
    }

    func friends(of user: User.ID) -> Set<User.ID>? {
        self.state.withLock { $0.serving ? $0.friends[user] : nil }
    }

    func challenge(_ key: ChallengeViewKey) -> ChallengeView? {
        self.state.withLock { $0.serving ? $0.challenges[key] : nil }
    }

    func challengeRoster(_ challenge: Challenge.ID) -> [User.ID]? {
        self.state.withLock { $0.serving ? $0.challengeRosters[challenge] : nil }
    }

    /// Those of `users` the cache holds for `baseline`.
    func people(_ users: [User.ID], baseline: BoardID) -> [User.ID: BoardPerson] {
        self.state.withLock { state in
            guard state.serving else { return [:] }
            var found: [User.ID: BoardPerson] = [:]
            for user in users {
                if let person = state.people[PersonKey(user: user, baseline: baseline)] { found[user] = person }
            }
            return found
        }
    }

    /// Keeps what was read under `generation`, unless something changed since.
    func keep(_ entries: [Entry], readUnder generation: UInt64) {
        self.state.withLock { state in
            guard state.serving, state.generation == generation else { return }
            for entry in entries {
                switch entry {
                case .session(let entry):
                    state.sessions.keep(
                        entry,
                        for: entry.session.id,
                        tags: [.user(entry.user.id), .session(entry.session.id)]
                    )
                case .circle(let key, let view):
                    state.circles.keep(view, for: key, tags: [.circle(key.circle)])
                case .roster(let circle, let roster):
                    state.rosters.keep(roster, for: circle, tags: [.circle(circle)])
                case .person(let key, let person):
                    let owner: [CacheTag] =
                        if case .circle(let circle) = key.baseline.owner { [.circle(circle)] } else { [] }
                    state.people.keep(person, for: key, tags: [.user(key.user)] + owner)
                case .blockers(let user, let blockers):
                    state.blockers.keep(blockers, for: user, tags: [.user(user)])
                case .friends(let user, let friends):
                    state.friends.keep(friends, for: user, tags: [.user(user)])
                case .challenge(let key, let view):
                    state.challenges.keep(view, for: key, tags: [.challenge(key.challenge)])
                case .challengeRoster(let challenge, let roster):
                    state.challengeRosters.keep(roster, for: challenge, tags: [.challenge(challenge)])
                }
            }
        }
    }

    /// Forgets every entry tagged with one of `tags`.
    func forget(_ tags: Set<CacheTag>) {
        guard !tags.isEmpty else { return }
        self.state.withLock { $0.forget(tags) }
    }

    /// Forgets everything (after a statement the store cannot see into).
    func forgetAll() {
        self.state.withLock { $0.forgetAll() }
    }

    /// Starts or stops serving as this node starts or stops hearing the others; either way it starts empty.
    func listening(_ listening: Bool) {
        self.state.withLock { state in
            state.forgetAll()
            state.serving = listening
        }
    }
}

/// What a board row shows of a member: name, photo, and rank on the board's baseline.
public struct BoardPerson: Equatable, Sendable {
    public var name: String
    public var photo: PersonPhoto?
    /// Who sees their name on boards (`ProfileAccess.boardName`).
    public var nameAudience: Audience
    /// Who sees their weight, and so the kilograms they lost (`ProfileAccess.mayViewWeightLost`).
    public var weightAudience: Audience
    public var baselineRank: Int?

    public init(
        name: String,
        photo: PersonPhoto?,
        nameAudience: Audience,
        weightAudience: Audience = .onlyMe,
        baselineRank: Int?
    ) {
        self.name = name
        self.photo = photo
        self.nameAudience = nameAudience
        self.weightAudience = weightAudience
        self.baselineRank = baselineRank
    }
}

/// What a cache entry depends on: a change of it makes every entry so tagged go.
enum CacheTag: Hashable, Sendable {
    case user(User.ID)
    case session(Session.ID)
    /// The circle's row, its memberships and its snapshots.
    case circle(FitCircle.ID)
    /// Which workouts a reader's friends' feed holds, in which order and visibility (`feed_entries`).
    case feed(User.ID)
    /// A workout as feeds show it: its reactions, or its deletion.
    case activity(ActivityEvent.ID)
    /// A challenge's row and its participants' rows.
    case challenge(Challenge.ID)

    /// Tags of the friends' feeds, which no entry of the cache is filed under.
    var isFeeds: Bool {
        switch self {
        case .feed, .activity: true
        case .user, .session, .circle, .challenge: false
        }
    }

    static let prefix = "changed "

    /// `changed <node> u:<id> s:<id> c:<id> f:<id> a:<id> h:<id> …` from the node that made the change, in messages well under
    /// `NOTIFY`'s 8,000 bytes.
    static func messages(_ tags: Set<CacheTag>, from node: String) -> [String] {
        let words = tags.map { tag in
            switch tag {
            case .user(let id): "u:\(id.rawValue)"
            case .session(let id): "s:\(id.rawValue)"
            case .circle(let id): "c:\(id.rawValue)"
            case .feed(let id): "f:\(id.rawValue)"
            case .activity(let id): "a:\(id.rawValue)"
            case .challenge(let id): "h:\(id.rawValue)"
            }
        }
        return stride(from: 0, to: words.count, by: 100).map {
            Self.prefix + ([node] + words[$0..<min($0 + 100, words.count)]).joined(separator: " ")
        }
    }

    /// The node and the tags a message names; nil for another kind of message.
    static func tags(in message: String) -> (node: String, tags: Set<CacheTag>)? {
        guard message.hasPrefix(Self.prefix) else { return nil }
        let words = message.dropFirst(Self.prefix.count).split(separator: " ")
        guard let node = words.first else { return nil }
        var tags = Set<CacheTag>()
        for word in words.dropFirst() {
            let id = String(word.dropFirst(2))
            switch word.prefix(2) {
            case "u:": tags.insert(.user(User.ID(id)))
            case "s:": tags.insert(.session(Session.ID(id)))
            case "c:": tags.insert(.circle(FitCircle.ID(id)))
            case "f:": tags.insert(.feed(User.ID(id)))
            case "a:": tags.insert(.activity(ActivityEvent.ID(id)))
            case "h:": tags.insert(.challenge(Challenge.ID(id)))
            default: continue
            }
        }
        return (String(node), tags)
    }
}

/// Entries by key, and the keys each tag covers; past `capacity` entries it starts again empty (cheap, and
/// rare enough not to matter).
struct TaggedMap<Key: Hashable & Sendable, Value: Sendable> {
    private var values: [Key: Value] = [:]
    private var keysByTag: [CacheTag: Set<Key>] = [:]
    /// Keys filed under tags since the last start; a key forgotten by one tag stays filed under its others.
    private var filed = 0
    let capacity: Int

    init(capacity: Int = 50_000) {
        self.capacity = capacity
    }

    subscript(key: Key) -> Value? { self.values[key] }

    mutating func keep(_ value: Value, for key: Key, tags: [CacheTag]) {
        if self.values.count >= self.capacity || self.filed >= 4 * self.capacity { self.removeAll() }
        self.values[key] = value
        for tag in tags { self.keysByTag[tag, default: []].insert(key) }
        self.filed += tags.count
    }

    mutating func forget(_ tags: Set<CacheTag>) {
        for tag in tags {
            for key in self.keysByTag.removeValue(forKey: tag) ?? [] { self.values[key] = nil }
        }
    }

    mutating func removeAll() {
        self.values.removeAll()
        self.keysByTag.removeAll()
        self.filed = 0
    }
}

/// What one transaction has changed so far; the store forgets it from the cache once the transaction commits.
final class ChangeLog: Sendable {
    private let tags = Mutex(Set<CacheTag>())

    /// Notes `more`; answers those not noted before.
    func record(_ more: [CacheTag]) -> Set<CacheTag> {
        self.tags.withLock { tags in Set(more.filter { tags.insert($0).inserted }) }
    }

    var recorded: Set<CacheTag> { self.tags.withLock { $0 } }
}
