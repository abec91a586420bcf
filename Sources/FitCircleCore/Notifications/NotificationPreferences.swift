/// What a user chose about notifications (spec 000, Feature 8): one model for every channel and type.
public struct NotificationPreferences: Equatable, Sendable, Codable {
    /// Master switches.
    public var push: Bool
    public var email: Bool
    public var inApp: Bool
    /// Per type and channel; a pair not listed is on.
    public var types: [String: [NotificationChannel: Bool]]
    /// When daily reminders come, 06:00–23:00.
    public var reminderTime: LocalTime
    /// The user set `reminderTime` themself: it then wins over the time learned from their habits (spec 000
    /// F8, 001 NOTIF-03: "User can manually set notification time").
    public var reminderTimeChosen: Bool
    /// Do not disturb from `quietStart` to `quietEnd`; the window may wrap midnight.
    public var quietStart: LocalTime
    public var quietEnd: LocalTime
    /// No non-critical notifications on Saturdays and Sundays.
    public var pauseWeekends: Bool
    /// Types the user wants gathered into one digest instead of one by one.
    public var digest: Set<String>

    public init(
        push: Bool = true,
        email: Bool = true,
        inApp: Bool = true,
        types: [String: [NotificationChannel: Bool]] = [:],
        reminderTime: LocalTime = LocalTime.at(20),
        quietStart: LocalTime = LocalTime.at(22),
        quietEnd: LocalTime = LocalTime.at(7),
        pauseWeekends: Bool = false,
        digest: Set<String> = [],
        reminderTimeChosen: Bool = false
    ) {
        self.push = push
        self.email = email
        self.inApp = inApp
        self.types = types
        self.reminderTime = reminderTime
        self.reminderTimeChosen = reminderTimeChosen
        self.quietStart = quietStart
        self.quietEnd = quietEnd
        self.pauseWeekends = pauseWeekends
        self.digest = digest
    }

    /// The defaults every account starts with.
    public static let defaults = NotificationPreferences()

    /// Preferences saved before `reminderTimeChosen` existed count a time other than the default as chosen.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            push: try container.decode(Bool.self, forKey: .push),
            email: try container.decode(Bool.self, forKey: .email),
            inApp: try container.decode(Bool.self, forKey: .inApp),
            types: try container.decode([String: [NotificationChannel: Bool]].self, forKey: .types),
            reminderTime: try container.decode(LocalTime.self, forKey: .reminderTime),
            quietStart: try container.decode(LocalTime.self, forKey: .quietStart),
            quietEnd: try container.decode(LocalTime.self, forKey: .quietEnd),
            pauseWeekends: try container.decode(Bool.self, forKey: .pauseWeekends),
            digest: try container.decode(Set<String>.self, forKey: .digest)
        )
        self.reminderTimeChosen =
            try container.decodeIfPresent(Bool.self, forKey: .reminderTimeChosen)
            ?? (self.reminderTime != Self.defaults.reminderTime)
    }

    /// The channel's master switch.
    public func isOn(_ channel: NotificationChannel) -> Bool {
        switch channel {
        case .push: self.push
        case .email: self.email
        case .inApp: self.inApp
        }
    }

    /// The type's own switch for this channel (always on for a critical type; off until turned on for an
    /// opt-in type).
    public func typeSwitch(_ kind: NotificationType, on channel: NotificationChannel) -> Bool {
        kind.critical || self.types[kind.type]?[channel] ?? !kind.optIn
    }

    /// Whether the user lets `kind` reach them on `channel`: the master switch and the type's own switch; a
    /// critical type always keeps the in-app channel.
    public func delivers(_ kind: NotificationType, on channel: NotificationChannel) -> Bool {
        (kind.critical && channel == .inApp) || (self.isOn(channel) && self.typeSwitch(kind, on: channel))
    }

    /// Whether `time` falls in the do-not-disturb window (start included, end excluded).
    public func isQuiet(at time: LocalTime) -> Bool {
        guard self.quietStart != self.quietEnd else { return false }
        return self.quietStart < self.quietEnd
            ? time >= self.quietStart && time < self.quietEnd
            : time >= self.quietStart || time < self.quietEnd
    }

    /// Every violation: an unknown type, a critical type turned off, a reminder time outside 06:00–23:00.
    public func validate(against catalog: NotificationCatalog) throws {
        var validator = Validator()
        for (type, channels) in self.types.sorted(by: { $0.key < $1.key }) {
            guard let entry = catalog[type] else {
                validator.check(false, "types.\(type)", "is not a notification type of this app")
                continue
            }
            for (channel, on) in channels.sorted(by: { $0.key.rawValue < $1.key.rawValue }) where !on && entry.critical
            {
                validator.check(
                    false,
                    "types.\(type).\(channel.rawValue)",
                    "'\(type)' is critical and cannot be turned off"
                )
            }
        }
        for type in self.digest.sorted() {
            validator.check(catalog[type]?.digestible ?? false, "digest", "'\(type)' cannot be gathered into a digest")
        }
        validator.check(
            LocalTime.at(6) <= self.reminderTime && self.reminderTime <= LocalTime.at(23),
            "reminderTime",
            "must be between 06:00 and 23:00"
        )
        try validator.throwIfInvalid()
    }
}
