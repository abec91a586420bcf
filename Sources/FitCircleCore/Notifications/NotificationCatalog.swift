import Foundation

/// The ways a notification can reach a user.
public enum NotificationChannel: String, Hashable, Sendable, Codable, CaseIterable {
    case push, email
    case inApp = "in_app"
}

/// Every notification type an app sends (the profile's `notifications` section) and the budget they share.
public struct NotificationCatalog: Equatable, Sendable, Codable {
    /// At most this many non-critical notifications a user's local day and week, all types together.
    public var nonCriticalPerDay: Int
    public var nonCriticalPerWeek: Int
    public var types: [NotificationType]

    public init(nonCriticalPerDay: Int = 3, nonCriticalPerWeek: Int = 15, types: [NotificationType] = []) {
        self.nonCriticalPerDay = nonCriticalPerDay
        self.nonCriticalPerWeek = nonCriticalPerWeek
        self.types = types
    }

    public subscript(type: String) -> NotificationType? { self.types.first { $0.type == type } }
    public subscript(type: RaisedType) -> NotificationType? { self[type.rawValue] }
}

/// One notification type: who decides, how it may be sent, when, how often, and what it says.
public struct NotificationType: Equatable, Sendable, Codable {
    public var type: String
    /// A critical type cannot be turned off and is outside the daily budget (it still waits out quiet hours).
    public var critical: Bool
    /// Where it goes by default.
    public var channels: [NotificationChannel]
    /// Sent by email instead when the user has no push device.
    public var emailFallback: Bool
    /// Its local time when scheduled (`null` for those sent as things happen).
    public var at: LocalTime?
    /// A weekly type's day (`wednesday`), or a monthly type's day of the month (`1`); neither: every day.
    public var weekday: Weekday?
    public var monthDay: Int?
    /// Goes out at the user's daily reminder time (spec 000: "20:00 — or the user's reminder time"); `at`
    /// is then that time's default.
    public var followsReminderTime: Bool
    /// Goes out a while before the user's habitual time once it is learned (else at its time), unless the
    /// user chose a reminder time and the type follows it.
    public var personalised: Bool
    /// How many minutes before the habitual time a personalised type goes out.
    public var habitLead: Int
    public var perDay: Int?
    public var perWeek: Int?
    public var perHour: Int?
    /// Dropped when the day's goal is already met (a reminder to do what is done).
    public var unlessGoalMet: Bool
    /// May be gathered into one digest when the user chose so.
    public var digestible: Bool
    /// A summary the user reads at leisure (the week in review, the month's report): counted in the shared
    /// budget but never stopped by it, so a busy week's nudges cannot crowd out the week's one summary.
    public var outsideBudget: Bool
    /// Off until the user turns it on (a friend's every workout is too much for most).
    public var optIn: Bool
    /// Dropped, not even left in the inbox, when the user was in the app moments ago (spec 002: "don't
    /// notify if the user just opened the app"): they have seen where they stand.
    public var unlessActive: Bool
    public var title: String
    /// With `{variables}` filled from the trigger's data, and `{count:one|other}` the word that agrees with a
    /// count ("{daysLeft} {daysLeft:day|days} left": "1 day left", "3 days left").
    public var body: String
    /// Copy for particular states of the trigger's data, the first that matches winning over `title` and
    /// `body` (no streak yet: "start your streak", not "keep your 0-day streak").
    public var variants: [CopyVariant]
    public var deepLink: String?

    /// Copy for the trigger data where every key of `when` holds its value.
    public struct CopyVariant: Equatable, Sendable, Codable {
        public var when: [String: String]
        public var title: String?
        public var body: String

        public init(when: [String: String], title: String? = nil, body: String) {
            self.when = when
            self.title = title
            self.body = body
        }

        func matches(_ data: [String: String]) -> Bool { self.when.allSatisfy { data[$0.key] == $0.value } }
    }

    public init(
        type: String,
        critical: Bool = false,
        channels: [NotificationChannel] = [.push, .inApp],
        emailFallback: Bool = false,
        at: LocalTime? = nil,
        weekday: Weekday? = nil,
        monthDay: Int? = nil,
        followsReminderTime: Bool = false,
        personalised: Bool = false,
        habitLead: Int = SendTime.defaultLeadMinutes,
        perDay: Int? = nil,
        perWeek: Int? = nil,
        perHour: Int? = nil,
        unlessGoalMet: Bool = false,
        digestible: Bool = false,
        outsideBudget: Bool = false,
        optIn: Bool = false,
        unlessActive: Bool = false,
        title: String,
        body: String,
        variants: [CopyVariant] = [],
        deepLink: String? = nil
    ) {
        self.unlessActive = unlessActive
        self.type = type
        self.critical = critical
        self.channels = channels
        self.emailFallback = emailFallback
        self.at = at
        self.weekday = weekday
        self.monthDay = monthDay
        self.followsReminderTime = followsReminderTime
        self.personalised = personalised
        self.habitLead = habitLead
        self.perDay = perDay
        self.perWeek = perWeek
        self.perHour = perHour
        self.unlessGoalMet = unlessGoalMet
        self.digestible = digestible
        self.outsideBudget = outsideBudget
        self.optIn = optIn
        self.title = title
        self.body = body
        self.variants = variants
        self.deepLink = deepLink
    }

    private enum CodingKeys: String, CodingKey {
        case type, critical, channels, emailFallback, at, weekday, monthDay, followsReminderTime, personalised,
            habitLead, perDay, perWeek, perHour, unlessGoalMet, digestible, outsideBudget, optIn, unlessActive, title,
            body, variants, deepLink
    }

    /// Only `type`, `title` and `body` are required in a profile.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            type: try container.decode(String.self, forKey: .type),
            critical: try container.decodeIfPresent(Bool.self, forKey: .critical) ?? false,
            channels: try container.decodeIfPresent([NotificationChannel].self, forKey: .channels) ?? [.push, .inApp],
            emailFallback: try container.decodeIfPresent(Bool.self, forKey: .emailFallback) ?? false,
            at: try container.decodeIfPresent(LocalTime.self, forKey: .at),
            weekday: try container.decodeIfPresent(Weekday.self, forKey: .weekday),
            monthDay: try container.decodeIfPresent(Int.self, forKey: .monthDay),
            followsReminderTime: try container.decodeIfPresent(Bool.self, forKey: .followsReminderTime) ?? false,
            personalised: try container.decodeIfPresent(Bool.self, forKey: .personalised) ?? false,
            habitLead: try container.decodeIfPresent(Int.self, forKey: .habitLead) ?? SendTime.defaultLeadMinutes,
            perDay: try container.decodeIfPresent(Int.self, forKey: .perDay),
            perWeek: try container.decodeIfPresent(Int.self, forKey: .perWeek),
            perHour: try container.decodeIfPresent(Int.self, forKey: .perHour),
            unlessGoalMet: try container.decodeIfPresent(Bool.self, forKey: .unlessGoalMet) ?? false,
            digestible: try container.decodeIfPresent(Bool.self, forKey: .digestible) ?? false,
            outsideBudget: try container.decodeIfPresent(Bool.self, forKey: .outsideBudget) ?? false,
            optIn: try container.decodeIfPresent(Bool.self, forKey: .optIn) ?? false,
            unlessActive: try container.decodeIfPresent(Bool.self, forKey: .unlessActive) ?? false,
            title: try container.decode(String.self, forKey: .title),
            body: try container.decode(String.self, forKey: .body),
            variants: try container.decodeIfPresent([CopyVariant].self, forKey: .variants) ?? [],
            deepLink: try container.decodeIfPresent(String.self, forKey: .deepLink)
        )
    }

    /// Whether a scheduled type goes out on `date` (its weekday, its day of the month, or every day).
    public func isScheduled(on date: LocalDate) -> Bool {
        guard self.at != nil else { return false }
        if let weekday = self.weekday, date.weekday != weekday { return false }
        if let monthDay = self.monthDay, date.day != monthDay { return false }
        return true
    }

    /// Each `{count:one|other}` of `text` as `one` when the data's `count` is 1, else `other`.
    public static func agreeing(_ text: String, with data: [String: String]) -> String {
        var text = text
        for (key, value) in data {
            let opening = "{\(key):"
            var from = text.startIndex
            while let start = text.range(of: opening, range: from..<text.endIndex),
                let end = text[start.upperBound...].firstIndex(of: "}")
            {
                let forms = text[start.upperBound..<end].split(
                    separator: "|",
                    maxSplits: 1,
                    omittingEmptySubsequences: false
                )
                let word = String(forms.count == 2 && value != "1" ? forms[1] : forms[0])
                text.replaceSubrange(start.lowerBound...end, with: word)
                from = text.index(start.lowerBound, offsetBy: word.count)
            }
        }
        return text
    }

    /// The copy (of the first variant `data` matches, else the type's) and deep link with `{name}` replaced
    /// by `data["name"]`; unknown variables stay as written in the copy, but a deep link that still holds
    /// one is left out: an app would open a link to nothing (`fitcircle://users/{userId}`).
    public func render(_ data: [String: String]) -> (title: String, body: String, deepLink: String?) {
        func fill(_ template: String) -> String {
            Self.agreeing(
                data.reduce(template) { text, pair in text.replacingOccurrences(of: "{\(pair.key)}", with: pair.value)
                },
                with: data
            )
        }
        let variant = self.variants.first { $0.matches(data) }
        let deepLink = self.deepLink.map(fill).flatMap { $0.contains("{") ? nil : $0 }
        return (fill(variant?.title ?? self.title), fill(variant?.body ?? self.body), deepLink)
    }
}
