public import FitCircleCore
public import FitCircleStore
public import Foundation
public import Logging

/// Something to do in every time zone at a local time: close yesterday's streaks at 00:05, plan the day's
/// goals at 00:00, remind at 20:00 — or, with `zone`, once a day at that time in that one zone, whoever
/// lives where (housekeeping).
public struct ZoneSchedule: Equatable, Sendable {
    public var kind: String
    public var hour: Int
    public var minute: Int
    public var zone: String?

    public init(kind: String, hour: Int, minute: Int, zone: String? = nil) {
        self.kind = kind
        self.hour = hour
        self.minute = minute
        self.zone = zone
    }
}

/// What a zone job is about: one zone's users on one local date, from the user after `after` on.
public struct ZoneBatch: Codable, Equatable, Sendable {
    public var zone: String
    public var date: LocalDate
    public var after: String?

    public init(zone: String, date: LocalDate, after: String? = nil) {
        self.zone = zone
        self.date = date
        self.after = after
    }

    /// The job that carries this batch; its dedupe key makes it once per kind, zone, date and page.
    public func job(_ kind: String, runAt: Date, maxAttempts: Int = 8) throws -> JobRecord {
        let key = Self.dedupeKey(kind, zone: self.zone, date: self.date) + (self.after.map { ":after:\($0)" } ?? "")
        return JobRecord(
            id: UUID().uuidString.lowercased(),
            kind: kind,
            payload: String(decoding: try JSONEncoder().encode(self), as: UTF8.self),
            dedupeKey: key,
            runAt: runAt,
            maxAttempts: maxAttempts
        )
    }

    /// The dedupe key of the first page's job of `kind` in `zone` on `date`.
    public static func dedupeKey(_ kind: String, zone: String, date: LocalDate) -> String {
        "\(kind):\(zone):\(date.iso)"
    }

    public init(_ job: JobRecord) throws {
        self = try JSONDecoder().decode(ZoneBatch.self, from: Data(job.payload.utf8))
    }
}

/// Each minute, one node (the leader of that tick) queues the zone jobs whose local time has come in each
/// zone where users live. A tick missed (no node ran, a restart) is made up by the next one within
/// `catchUp`; the jobs' dedupe keys make extra ticks, two leaders in a row or a DST hour that repeats
/// harmless. On a spring-forward day a time that does not exist runs at the first local time after it.
public struct ZoneScheduler: Sendable {
    let store: Store
    let clock: WallClock
    let logger: Logger
    public let schedules: [ZoneSchedule]
    public var catchUp: TimeInterval = Self.defaultCatchUp
    /// How late a missed tick is still made up.
    public static let defaultCatchUp: TimeInterval = 6 * 3_600

    public init(store: Store, schedules: [ZoneSchedule], clock: WallClock, logger: Logger) {
        self.store = store
        self.schedules = schedules
        self.clock = clock
        self.logger = logger
    }

    /// One tick; answers how many jobs were new (0 when another node leads this tick).
    @discardableResult
    public func tick() async throws -> Int {
        let now = self.clock.now()
        return try await self.store.transaction { tx in
            guard try await tx.jobs.leadScheduler() else { return 0 }
            var jobs: [JobRecord] = []
            let zones = try await tx.jobs.timeZonesInUse()
            for schedule in self.schedules {
                for zone in schedule.zone.map({ [$0] }) ?? zones {
                    guard let timeZone = TimeZone(identifier: zone),
                        let (date, due) = Self.occurrence(of: schedule, in: timeZone, before: now),
                        now.timeIntervalSince(due) < self.catchUp
                    else {
                        continue
                    }
                    jobs.append(try ZoneBatch(zone: zone, date: date).job(schedule.kind, runAt: due))
                }
            }
            return try await tx.enqueue(jobs, at: now)
        }
    }

    /// Ticks every minute until cancelled.
    public func run(every interval: Duration = .seconds(60)) async {
        while !Task.isCancelled {
            do {
                try await self.tick()
            } catch {
                self.logger.error("The scheduler's tick failed", metadata: ["error": "\(error)"])
            }
            try? await Task.sleep(for: interval)
        }
    }

    /// The latest local date on which `schedule`'s time has come by `now` in `zone`, and the instant it
    /// came (today's if it has passed, else yesterday's).
    public static func occurrence(of schedule: ZoneSchedule, in zone: TimeZone, before now: Date) -> (LocalDate, Date)?
    {
        let today = LocalDate(now, in: zone)
        let time = LocalTime.at(schedule.hour, schedule.minute)
        for date in [today, today.adding(days: -1)] {
            if let instant = date.instant(at: time, in: zone), instant <= now { return (date, instant) }
        }
        return nil
    }
}
