extension Streak {
    /// A streak ledger's closed period as the metrics read it: its first day and the streak after it.
    public struct Closed: Equatable, Sendable {
        public var period: LocalDate
        public var count: Int

        public init(period: LocalDate, count: Int) {
            self.period = period
            self.count = count
        }
    }

    /// Where someone's streak stood on `day` (spec 000: "% of users with 7+ day streaks"), from their last
    /// closed periods up to `day`, oldest first, one after another. While the period holding `day` is open
    /// the streak stands at what the period before it left, and a period that extends it raises it on its
    /// day; one that breaks it does so only once it is over. So someone on day 8 of a streak who has not
    /// checked in yet stands at 7, and so does someone whose 8th day goes by without a check-in.
    public static func standing(on day: LocalDate, after closed: [Closed]) -> Int {
        guard let last = closed.last(where: { $0.period <= day }) else { return 0 }
        let before = closed.last { $0.period < last.period }
        // Periods follow one another, so the gap between the last two is a period's length (a day when
        // only one is known).
        let length = before.map { last.period.days(since: $0.period) } ?? 1
        let holdsDay = day.days(since: last.period) < length
        guard holdsDay, let before else { return last.count }
        return max(before.count, last.count)
    }
}
