/// What a photo says besides its pixels — EXIF (GPS position, camera, time), XMP, comments, text chunks —
/// taken out before it is stored: a profile photo is shown to circle mates, and a phone's photo carries
/// where it was taken. Only what decoding and colour need is kept (JPEG: JFIF, the ICC profile, Adobe's
/// colour transform and the image itself; PNG: critical chunks and colour and transparency chunks).
/// The EXIF orientation goes too: apps upload photos already upright.
public enum ImageMetadata {
    public enum Malformed: Error, Equatable { case truncated }

    /// The image without its metadata; `Malformed` when its structure does not hold together.
    public static func stripped(_ bytes: [UInt8], format: ImageFormat) throws(Malformed) -> [UInt8] {
        switch format {
        case .jpeg: try self.jpeg(bytes)
        case .png: try self.png(bytes)
        }
    }

    /// Segments up to the first scan, keeping APP0 (JFIF), APP2 (ICC profile), APP14 (Adobe) and every
    /// non-APP, non-comment segment; from the start of scan on, the bytes are the image and are kept whole.
    private static func jpeg(_ bytes: [UInt8]) throws(Malformed) -> [UInt8] {
        var out: [UInt8] = [0xFF, 0xD8]
        var at = 2
        while true {
            guard at + 4 <= bytes.count, bytes[at] == 0xFF else { throw .truncated }
            let marker = bytes[at + 1]
            if marker == 0xFF {
                at += 1
                continue
            }  // fill byte
            let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            guard length >= 2, at + 2 + length <= bytes.count else { throw .truncated }
            if marker == 0xDA {  // start of scan: the rest is image data
                out += bytes[at...]
                return out
            }
            let isApp = (0xE0...0xEF).contains(marker)
            let kept = !isApp && marker != 0xFE || [0xE0, 0xE2, 0xEE].contains(marker)
            if kept { out += bytes[at..<(at + 2 + length)] }
            at += 2 + length
        }
    }

    private static let pngKept: Set<String> = [
        "IHDR", "PLTE", "IDAT", "IEND", "tRNS", "gAMA", "cHRM", "sRGB", "iCCP", "sBIT", "pHYs", "bKGD",
    ]

    /// Chunks up to IEND, keeping the critical ones and those that change how pixels look.
    private static func png(_ bytes: [UInt8]) throws(Malformed) -> [UInt8] {
        var out = Array(bytes.prefix(8))
        var at = 8
        while true {
            guard at + 12 <= bytes.count else { throw .truncated }
            let length = Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            guard length <= bytes.count - at - 12 else { throw .truncated }
            let type = String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self)
            let end = at + 12 + length
            if self.pngKept.contains(type) { out += bytes[at..<end] }
            if type == "IEND" { return out }
            at = end
        }
    }
}
