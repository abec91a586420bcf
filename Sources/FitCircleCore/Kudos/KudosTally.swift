/// A person's kudos as someone sees them: how many friends gave one, and whether the viewer did.
public struct KudosTally: Equatable, Sendable {
    public var count: Int
    public var givenByViewer: Bool

    public init(count: Int, givenByViewer: Bool) {
        self.count = count
        self.givenByViewer = givenByViewer
    }
}
