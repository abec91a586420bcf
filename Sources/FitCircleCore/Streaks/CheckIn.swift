/// The daily check-in (spec 000, Feature 4): how the user feels today, and how they feel about
/// yesterday's steps once they have seen them.
public struct CheckIn: Equatable, Sendable, Codable {
    /// How the user feels about yesterday.
    public enum Sentiment: String, CaseIterable, Equatable, Sendable, Codable {
        case great, ok
        case couldBeBetter = "could_be_better"
    }

    /// 1–5.
    public var mood: Int
    /// 1–5.
    public var energy: Int
    public var sentiment: Sentiment?

    public init(mood: Int, energy: Int, sentiment: Sentiment? = nil) {
        self.mood = mood
        self.energy = energy
        self.sentiment = sentiment
    }

    /// The client event id of the user's check-in for `date`: one check-in per local day.
    public static func clientEventID(for date: LocalDate) -> String { "check-in:\(date.iso)" }
}
