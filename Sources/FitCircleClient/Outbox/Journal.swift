import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// An append-only file of records, each on disk before `append` returns. A record is its length and CRC-32
/// (little-endian, 4 bytes each) and its bytes; reading stops at the first record that is cut short or
/// fails its check, which is what a crash in the middle of a write leaves, and the file is cut back there.
final class Journal {
    let url: URL
    private var descriptor: Int32
    /// Bytes now in the file.
    private(set) var size: Int = 0

    init(url: URL) throws {
        self.url = url
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        self.descriptor = try Self.openFile(url)
    }

    deinit {
        close(self.descriptor)
    }

    /// Every whole record in the file, in order.
    func records() throws -> [Data] {
        let data = try Data(contentsOf: self.url)
        var (records, offset) = ([Data](), 0)
        while offset + 8 <= data.count {
            let length = Int(Self.uint32(data, at: offset))
            let checksum = Self.uint32(data, at: offset + 4)
            guard length <= data.count - offset - 8 else { break }
            let record = data.subdata(in: (data.startIndex + offset + 8)..<(data.startIndex + offset + 8 + length))
            guard CRC32.checksum(record) == checksum else { break }
            records.append(record)
            offset += 8 + length
        }
        if offset < data.count {
            // A torn tail from a crash: dropped, so what is appended next is readable.
            guard ftruncate(self.descriptor, off_t(offset)) == 0 else { throw JournalError.io("ftruncate", errno) }
            try self.synchronize(self.descriptor)
        }
        self.size = offset
        return records
    }

    /// Appends `records` with one write and one flush to the disk.
    func append(_ records: [Data]) throws {
        guard !records.isEmpty else { return }
        let bytes = Self.frame(records)
        try Self.writeAll(bytes, to: self.descriptor)
        try self.synchronize(self.descriptor)
        self.size += bytes.count
    }

    /// Replaces the whole file by `records`: written beside it, flushed, renamed over it, and the directory
    /// flushed, so a crash leaves either the old file or the new one.
    func replace(with records: [Data]) throws {
        let temporary = self.url.appendingPathExtension("compacting")
        unlink(temporary.path)
        let fresh = try Self.openFile(temporary)
        let bytes = Self.frame(records)
        do {
            try Self.writeAll(bytes, to: fresh)
            try self.synchronize(fresh)
        } catch {
            close(fresh)
            throw error
        }
        guard rename(temporary.path, self.url.path) == 0 else {
            close(fresh)
            throw JournalError.io("rename", errno)
        }
        let directory = self.url.deletingLastPathComponent().path.withCString { open($0, O_RDONLY) }
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
        close(self.descriptor)
        self.descriptor = fresh
        self.size = bytes.count
    }

    private static func openFile(_ url: URL) throws -> Int32 {
        let descriptor = url.path.withCString { open($0, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o600) }
        guard descriptor >= 0 else { throw JournalError.io("open \(url.path)", errno) }
        return descriptor
    }

    private static func frame(_ records: [Data]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(records.reduce(0) { $0 + $1.count + 8 })
        for record in records {
            for value in [UInt32(record.count), CRC32.checksum(record)] {
                withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
            }
            bytes.append(contentsOf: record)
        }
        return bytes
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) throws {
        var written = 0
        while written < bytes.count {
            let result = bytes[written...].withUnsafeBytes { remaining in
                guard let start = remaining.baseAddress else { return 0 }
                return write(descriptor, start, remaining.count)
            }
            if result < 0 {
                if errno == EINTR { continue }
                throw JournalError.io("write", errno)
            }
            written += result
        }
    }

    /// To the disk itself: on Apple platforms `fsync` only reaches the drive's cache, `F_FULLFSYNC` its media.
    private func synchronize(_ descriptor: Int32) throws {
        #if canImport(Darwin)
            if fcntl(descriptor, F_FULLFSYNC) == 0 { return }
        #endif
        guard fsync(descriptor) == 0 else { throw JournalError.io("fsync", errno) }
    }

    private static func uint32(_ data: Data, at offset: Int) -> UInt32 {
        var value: UInt32 = 0
        for index in 0..<4 { value |= UInt32(data[data.startIndex + offset + index]) << (8 * index) }
        return value
    }
}

enum JournalError: Error, CustomStringConvertible {
    case io(String, Int32)

    var description: String {
        switch self {
        case .io(let call, let code): "\(call) failed: \(String(cString: strerror(code)))"
        }
    }
}

/// CRC-32 (IEEE 802.3), as zlib computes it.
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        (0..<8).reduce(UInt32(index)) { crc, _ in crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
    }

    static func checksum(_ data: Data) -> UInt32 {
        ~data.reduce(~UInt32(0)) { crc, byte in Self.table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
    }
}
