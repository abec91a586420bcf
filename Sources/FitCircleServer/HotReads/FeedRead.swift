import FitCircleAPI
import FitCircleCore
import FitCircleEngine

/// `GET /api/feed`'s first page (what an app opens and polls): the same use case and mapping as the generated
/// handler, written by hand. Any query (`cursor`, `limit`, `type`) goes the generated way. Each reader's page
/// is kept with the mark of what it was built from (`Friends.firstFeedPage`) and served again, without SQL or
/// JSON, while none of it changed: the reader's feed, the reader's and the authors' accounts and friendships,
/// the page's workouts and their reactions.
struct FeedRead: HotRead {
    let engine: Engine
    let kept: KeptAnswers<User.ID, Friends.FeedPageMark>
    let operationID = "getFriendFeed"
    let path = "/api/feed"

    func input(path: [Substring], query: some Sequence<(key: Substring, value: Substring)>) -> Void? {
        query.contains { _ in true } ? nil : ()
    }

    func answer(_: Void, for caller: Caller) async throws -> HotAnswer {
        let friends = self.engine.friends
        if var answer = self.kept.answer(caller.userID, if: friends.isCurrent) {
            answer.wasKept = true
            return answer
        }
        let (entries, mark) = try await friends.firstFeedPage(of: caller.userID)
        var json = JSONWriter(capacity: 8192)
        try Components.Schemas.FriendFeedPage(entries, limit: Friends.feedPageSize).json(&json)
        let answer = HotAnswer(json: json.bytes)
        if let mark { self.kept.keep(answer, for: caller.userID, at: mark) }
        return answer
    }
}
