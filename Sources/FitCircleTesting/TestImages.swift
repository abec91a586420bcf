/// Small images with the structure real ones have (segments, chunks and their CRCs), made in the test.
public enum TestImages {
    /// SOI, JFIF, optionally an EXIF segment with a GPS tag and a comment, a quantisation table, the scan, EOI.
    public static func jpeg(withExif: Bool) -> [UInt8] {
        func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
            [0xFF, marker, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        }
        var bytes: [UInt8] = [0xFF, 0xD8]
        bytes += segment(0xE0, Array("JFIF\0".utf8) + [1, 1, 0, 0, 1, 0, 1, 0, 0])
        if withExif {
            bytes += segment(0xE1, Array("Exif\0\0MM\0*GPSLatitude 48.8584".utf8))
            bytes += segment(0xFE, Array("taken at home".utf8))
        }
        bytes += segment(0xDB, [0] + [UInt8](repeating: 1, count: 64))
        bytes += segment(0xDA, [1, 1, 0, 0, 63, 0]) + [0x12, 0x34, 0xFF, 0x00, 0x56] + [0xFF, 0xD9]
        return bytes
    }

    /// A 1×1 grey PNG, optionally with a tEXt chunk.
    public static func png(withText text: String?) -> [UInt8] {
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            let length = UInt32(data.count)
            let crc = crc32(body)
            return [24, 16, 8, 0].map { UInt8((length >> $0) & 0xFF) } + body
                + [24, 16, 8, 0].map { UInt8((crc >> $0) & 0xFF) }
        }
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        bytes += chunk("IHDR", [0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0])
        if let text { bytes += chunk("tEXt", Array("Comment\0\(text)".utf8)) }
        bytes += chunk("IDAT", [0x78, 0x9C, 0x63, 0x60, 0x00, 0x00, 0x00, 0x02, 0x00, 0x01])
        bytes += chunk("IEND", [])
        return bytes
    }

    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
