/// The image formats a profile photo may have, recognised by their first bytes, never by a file name.
public enum ImageFormat: String, CaseIterable, Equatable, Sendable {
    case jpeg, png

    public var contentType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        }
    }

    /// The format whose signature `bytes` starts with, or `nil`.
    public static func detect(_ bytes: some Collection<UInt8>) -> ImageFormat? {
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        return nil
    }

    /// Profile photos are refused above this size (5 MB).
    public static let maximumPhotoBytes = 5 * 1024 * 1024
}
