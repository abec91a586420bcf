/// A route in the encoded polyline format apps and map services use: each coordinate in 1e-5 degrees,
/// delta-encoded, zig-zagged and written five bits a character from `?` (63). Checked, not trusted: a route
/// is kept only when it decodes to latitude and longitude pairs on the globe.
public enum Polyline {
    /// The longest route kept, in bytes (a few hours of GPS points a few metres apart).
    public static let maximumBytes = 65_536

    /// The points of `text`, or `nil` when it is not a well-formed polyline of real coordinates.
    public static func decode(_ text: String) -> [(latitude: Double, longitude: Double)]? {
        var points: [(latitude: Double, longitude: Double)] = []
        var iterator = text.utf8.makeIterator()
        var latitude = 0
        var longitude = 0
        func next() -> Int?? {
            var result = 0
            var shift = 0
            while let byte = iterator.next() {
                guard (63...126).contains(byte), shift <= 30 else { return .some(nil) }
                let chunk = Int(byte) - 63
                result |= (chunk & 0x1F) << shift
                shift += 5
                if chunk < 0x20 { return .some((result & 1) != 0 ? ~(result >> 1) : result >> 1) }
            }
            return shift == 0 ? nil : .some(nil)
        }
        while let first = next() {
            guard let deltaLatitude = first, case .some(.some(let deltaLongitude)) = next() else { return nil }
            latitude += deltaLatitude
            longitude += deltaLongitude
            guard abs(latitude) <= 9_000_000, abs(longitude) <= 18_000_000 else { return nil }
            points.append((Double(latitude) / 1e5, Double(longitude) / 1e5))
        }
        return points
    }

    /// Whether `text` may be kept as a workout's route.
    public static func isValid(_ text: String) -> Bool {
        text.utf8.count <= self.maximumBytes && !text.isEmpty && self.decode(text) != nil
    }

    /// The points of `points` as a polyline.
    public static func encode(_ points: [(latitude: Double, longitude: Double)]) -> String {
        var text = ""
        var (latitude, longitude) = (0, 0)
        func write(_ delta: Int) {
            var value = delta < 0 ? ~(delta << 1) : delta << 1
            while value >= 0x20 {
                text.unicodeScalars.append(Unicode.Scalar(UInt8((0x20 | (value & 0x1F)) + 63)))
                value >>= 5
            }
            text.unicodeScalars.append(Unicode.Scalar(UInt8(value + 63)))
        }
        for point in points {
            let (nextLatitude, nextLongitude) = (
                Int((point.latitude * 1e5).rounded()), Int((point.longitude * 1e5).rounded())
            )
            write(nextLatitude - latitude)
            write(nextLongitude - longitude)
            (latitude, longitude) = (nextLatitude, nextLongitude)
        }
        return text
    }

    /// A small version of a route for a list (a feed's thumbnail): at most `points` of its points, evenly
    /// spread, the first and the last kept. `nil` when the route does not decode.
    public static func thumbnail(of text: String, points maximum: Int = 32) -> String? {
        guard let points = self.decode(text), !points.isEmpty else { return nil }
        guard points.count > maximum, maximum >= 2 else { return self.encode(points) }
        let step = Double(points.count - 1) / Double(maximum - 1)
        return self.encode((0..<maximum).map { points[Int((Double($0) * step).rounded())] })
    }
}
