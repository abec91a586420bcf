import FitCircleAPI
import FitCircleCore
import FitCircleEngine
import Foundation

extension Components.Schemas.BoardRow {
    init(_ row: Circles.LeaderboardRow) {
        self.init(
            rank: row.rank,
            userId: row.anonymous ? nil : row.user.rawValue,
            displayName: row.displayName,
            photoUrl: row.hasPhoto ? photoURL(of: row.user) : nil,
            value: row.value,
            percentOfGoal: row.percentOfGoal,
            reachedAt: row.reachedAt,
            movement: .init(rank: row.rank, previous: row.previousRank),
            isCaller: row.isCaller
        )
    }
}

extension Components.Schemas.BoardMovement {
    /// ▲ when the member climbed since the baseline (a smaller rank number), ▼ when they fell.
    init(rank: Int?, previous: Int?) {
        guard let rank else {
            self.init(direction: Components.Schemas.BoardMovement.DirectionPayload.none, previousRank: previous)
            return
        }
        guard let previous else {
            self.init(direction: .new)
            return
        }
        let by = previous - rank
        self.init(direction: by > 0 ? .up : by < 0 ? .down : .same, by: abs(by), previousRank: previous)
    }
}

extension Components.Schemas.BoardPeriod {
    var period: BoardPeriod {
        get throws(UnmappedCase) { try mapped(self) }
    }

    init(_ period: BoardPeriod) throws(UnmappedCase) { self = try mapped(period) }
}

extension Components.Schemas.Leaderboard {
    init(_ board: Circles.Leaderboard) throws {
        self.init(
            circleId: board.board.owner.id,
            period: try .init(board.board.period),
            periodStart: board.board.start.iso,
            periodEnd: board.end?.iso,
            metric: try mapped(board.metric),
            measure: try mapped(board.measure),
            entries: board.entries,
            memberCount: board.memberCount,
            layout: try mapped(board.layout),
            rows: board.rows.map(Components.Schemas.BoardRow.init),
            nextCursor: board.nextCursor.map(BoardCursor.encode)
        )
    }
}

extension Components.Schemas.FeedItem {
    init(_ row: FeedRow) throws {
        let item = row.item
        self.init(
            id: item.id.rawValue,
            circleId: item.circleID.rawValue,
            kind: try mapped(item.kind),
            actorId: row.anonymous ? nil : item.actorID.rawValue,
            actorName: row.actorName,
            actorPhotoUrl: row.actorPhoto.map { _ in photoURL(of: item.actorID) },
            text: item.text,
            data: .init(additionalProperties: item.data),
            createdAt: item.createdAt,
            encouragements: row.encouragements,
            encouraged: row.encouraged
        )
    }
}

/// Where a circle mate's photo is served.
func photoURL(of user: User.ID) -> String { "/api/users/\(user.rawValue)/photo" }
