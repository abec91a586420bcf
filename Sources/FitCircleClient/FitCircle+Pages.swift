import Foundation

/// A page of one of the API's lists: they all answer their items and a `nextCursor`, absent on the last page,
/// to send back as `cursor` for the next.
public protocol FitCirclePage: Sendable {
    associatedtype Item: Sendable
    var items: [Item] { get }
    var nextCursor: String? { get }
}

extension Components.Schemas.ActivityPage: FitCirclePage {}
extension Components.Schemas.FriendFeedPage: FitCirclePage {}
extension Components.Schemas.PointsLedgerPage: FitCirclePage {}
extension Components.Schemas.NotificationInbox: FitCirclePage {}
extension Components.Schemas.NotificationList: FitCirclePage {}
extension Components.Schemas.CircleMemberList: FitCirclePage {}
extension Components.Schemas.CircleFeed: FitCirclePage {}
extension Components.Schemas.FriendList: FitCirclePage {}
extension Components.Schemas.PersonPage: FitCirclePage {}
extension Components.Schemas.FitCircleList: FitCirclePage {}
extension Components.Schemas.CompetitionList: FitCirclePage {}
extension Components.Schemas.CircleBanList: FitCirclePage {}
extension Components.Schemas.CircleInvitationList: FitCirclePage {}
extension Components.Schemas.SubmissionsToday: FitCirclePage {}

extension FitCircle {
    /// Every item of a list, page after page, each page read as the sequence gets to it: `page` reads the page
    /// after a cursor (nil: the first), for example
    /// `fitCircle.everyItem { cursor in try await fitCircle.call { try await $0.getNotificationInbox(query: .init(cursor: cursor)).ok.body.json } }`.
    public func everyItem<Page: FitCirclePage>(
        of page: @escaping @Sendable (_ cursor: String?) async throws -> Page
    ) -> AsyncThrowingStream<Page.Item, any Error> {
        let (items, continuation) = AsyncThrowingStream.makeStream(of: Page.Item.self, throwing: (any Error).self)
        let reading = Task {
            var cursor: String?
            do {
                repeat {
                    let read = try await page(cursor)
                    for item in read.items { continuation.yield(item) }
                    // A server that answered the same cursor again would page forever.
                    guard read.nextCursor != cursor else { break }
                    cursor = read.nextCursor
                } while cursor != nil && !Task.isCancelled
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in reading.cancel() }
        return items
    }

    /// The in-app inbox, newest first, every notification once however many pages it takes.
    public func inbox() -> AsyncThrowingStream<Components.Schemas.Notification, any Error> {
        self.everyItem { cursor in
            try await self.call { try await $0.getNotificationInbox(query: .init(cursor: cursor)).ok.body.json }
        }
    }
}
