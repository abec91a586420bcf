import Foundation
import HTTPTypes
import NIOCore

/// With `FITCIRCLE_RECORD_EXCHANGES` naming a file, every request a test sends and the answer it gets are
/// appended to it as one JSON line each (method, path, JSON bodies, status): `scripts/record-examples.sh`
/// runs the suite this way and picks, for each body the document describes, a real one as its example.
/// Off (and free) unless the variable is set.
enum ExchangeRecorder {
    private static let file: FileHandle? = {
        guard let path = ProcessInfo.processInfo.environment["FITCIRCLE_RECORD_EXCHANGES"], !path.isEmpty else {
            return nil
        }
        if !FileManager.default.fileExists(atPath: path) {
            FileManager.default.createFile(atPath: path, contents: nil)
        }
        let handle = FileHandle(forWritingAtPath: path)
        _ = try? handle?.seekToEnd()
        return handle
    }()
    private static let lock = NSLock()

    static func record(
        _ method: HTTPRequest.Method,
        _ uri: String,
        request: ByteBuffer?,
        status: HTTPResponse.Status,
        contentType: String?,
        answer: ByteBuffer
    ) {
        guard let file = Self.file else { return }
        func json(_ buffer: ByteBuffer?) -> Any {
            guard let buffer else { return NSNull() }
            return (try? JSONSerialization.jsonObject(with: Data(buffer.readableBytesView), options: .fragmentsAllowed))
                ?? NSNull()
        }
        let line: [String: Any] = [
            "method": method.rawValue, "uri": uri, "request": json(request), "status": status.code,
            "contentType": contentType ?? "", "answer": json(answer),
        ]
        guard var data = try? JSONSerialization.data(withJSONObject: line, options: [.sortedKeys]) else { return }
        data.append(0x0A)
        Self.lock.withLock { file.write(data) }
    }
}
