import Foundation

/// Levels from total points: level L starts at `base × (L − 1)^exponent` points (level 1 at 0).
public struct LevelCurve: Equatable, Sendable, Codable {
    public var base: Double
    public var exponent: Double

    public init(base: Double, exponent: Double) {
        self.base = base
        self.exponent = exponent
    }

    /// Where a total stands on the curve.
    public struct Standing: Equatable, Sendable {
        public var level: Int
        public var levelStartsAt: Int
        public var nextLevelAt: Int
        public var pointsToNextLevel: Int

        public init(level: Int, levelStartsAt: Int, nextLevelAt: Int, pointsToNextLevel: Int) {
            self.level = level
            self.levelStartsAt = levelStartsAt
            self.nextLevelAt = nextLevelAt
            self.pointsToNextLevel = pointsToNextLevel
        }
    }

    /// The points at which `level` starts.
    public func threshold(of level: Int) -> Int {
        level <= 1 ? 0 : Int((self.base * pow(Double(level - 1), self.exponent)).rounded())
    }

    public func level(for points: Int) -> Int {
        var level = 1
        while self.threshold(of: level + 1) <= points && level < 10_000 { level += 1 }
        return level
    }

    public func standing(for points: Int) -> Standing {
        let level = self.level(for: points)
        let next = self.threshold(of: level + 1)
        return Standing(
            level: level,
            levelStartsAt: self.threshold(of: level),
            nextLevelAt: next,
            pointsToNextLevel: max(0, next - points)
        )
    }
}
