public import Foundation

/// A stored file.
public struct Blob: Equatable, Sendable {
    public var data: Data
    public var contentType: String

    public init(data: Data, contentType: String) {
        self.data = data
        self.contentType = contentType
    }
}
