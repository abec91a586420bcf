public import AsyncHTTPClient
import Crypto
public import FitCircleCore
public import Foundation
import NIOCore
import NIOHTTP1

/// Blobs in an S3-compatible object store (AWS S3, MinIO, Ceph, R2…), one object per key in one bucket,
/// addressed by path (`<endpoint>/<bucket>/<key>`, which every implementation serves), each request signed
/// with AWS Signature Version 4 (`S3Signature`). The bucket must exist.
public struct S3BlobStore: BlobStore {
    public struct Settings: Sendable {
        public var endpoint: URL
        public var bucket: String
        public var region: String
        public var accessKeyID: String
        public var secretAccessKey: String

        public init(endpoint: URL, bucket: String, region: String, accessKeyID: String, secretAccessKey: String) {
            self.endpoint = endpoint
            self.bucket = bucket
            self.region = region
            self.accessKeyID = accessKeyID
            self.secretAccessKey = secretAccessKey
        }
    }

    let settings: Settings
    let http: HTTPClient
    let now: @Sendable () -> Date

    /// `now` dates each signature (a skew of more than 15 minutes from the store's clock is refused by it).
    public init(settings: Settings, http: HTTPClient, now: @escaping @Sendable () -> Date) {
        self.settings = settings
        self.http = http
        self.now = now
    }

    public func put(_ data: Data, contentType: String, key: String) async throws {
        let response = try await self.send(.PUT, key: key, body: data, headers: ["content-type": contentType])
        guard (200..<300).contains(response.status) else {
            throw S3Error(operation: "PUT", key: key, status: response.status, body: response.body)
        }
    }

    public func get(_ key: String) async throws -> Blob? {
        let response = try await self.send(.GET, key: key, body: nil, headers: [:])
        if response.status == 404 { return nil }
        guard response.status == 200 else {
            throw S3Error(operation: "GET", key: key, status: response.status, body: response.body)
        }
        return Blob(data: response.body, contentType: response.contentType ?? "application/octet-stream")
    }

    public func delete(_ key: String) async throws {
        let response = try await self.send(.DELETE, key: key, body: nil, headers: [:])
        guard (200..<300).contains(response.status) || response.status == 404 else {
            throw S3Error(operation: "DELETE", key: key, status: response.status, body: response.body)
        }
    }

    private func send(_ method: HTTPMethod, key: String, body: Data?, headers: [String: String]) async throws -> (
        status: Int, body: Data, contentType: String?
    ) {
        let path =
            "/"
            + ([self.settings.bucket] + key.split(separator: "/").map(String.init)).map(S3Signature.encode).joined(
                separator: "/"
            )
        let base =
            self.settings.endpoint.absoluteString.hasSuffix("/")
            ? String(self.settings.endpoint.absoluteString.dropLast()) : self.settings.endpoint.absoluteString
        var host = self.settings.endpoint.host ?? ""
        if let port = self.settings.endpoint.port { host += ":\(port)" }
        let signed = S3Signature(
            region: self.settings.region,
            accessKeyID: self.settings.accessKeyID,
            secretAccessKey: self.settings.secretAccessKey
        )
        .sign(
            method: method.rawValue,
            path: path,
            query: "",
            headers: headers.merging(["host": host]) { _, new in new },
            payload: body ?? Data(),
            at: self.now()
        )
        var request = HTTPClientRequest(url: base + path)
        request.method = method
        for (name, value) in signed where name != "host" { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        let response = try await self.http.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 64 << 20)
        return (Int(response.status.code), Data(bytes.readableBytesView), response.headers.first(name: "content-type"))
    }
}

/// What the object store answered when it refused.
public struct S3Error: Error, CustomStringConvertible {
    public var operation: String
    public var key: String
    public var status: Int
    public var body: Data
    public var description: String {
        "S3 \(self.operation) \(self.key): HTTP \(self.status) \(String(decoding: self.body.prefix(300), as: UTF8.self))"
    }
}

/// AWS Signature Version 4 for S3 (docs.aws.amazon.com, "Authenticating Requests: Using the Authorization
/// Header"): the request's canonical form, hashed, signed with a key derived from the secret, the date,
/// the region and the service. Every header given is signed.
public struct S3Signature: Sendable {
    public var region: String
    public var accessKeyID: String
    public var secretAccessKey: String

    public init(region: String, accessKeyID: String, secretAccessKey: String) {
        self.region = region
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
    }

    /// The headers to send: those given (names lowercased), `x-amz-date`, `x-amz-content-sha256` and
    /// `authorization`. `path` is already URI-encoded, `query` already canonical ("" for none).
    public func sign(
        method: String,
        path: String,
        query: String,
        headers: [String: String],
        payload: Data,
        at date: Date
    ) -> [String: String] {
        let stamp = Self.timestamp(date)
        let day = String(stamp.prefix(8))
        var all = Dictionary(
            headers.map { ($0.key.lowercased(), $0.value.trimmingCharacters(in: .whitespaces)) },
            uniquingKeysWith: { _, new in new }
        )
        all["x-amz-date"] = stamp
        let contentHash = Self.hex(SHA256.hash(data: payload))
        all["x-amz-content-sha256"] = contentHash
        let sorted = all.sorted { $0.key < $1.key }
        let names = sorted.map(\.key)
        let canonical = [
            method, path, query, sorted.map { "\($0.key):\($0.value)\n" }.joined(), names.joined(separator: ";"),
            contentHash,
        ].joined(separator: "\n")
        let scope = "\(day)/\(self.region)/s3/aws4_request"
        let toSign = ["AWS4-HMAC-SHA256", stamp, scope, Self.hex(SHA256.hash(data: Data(canonical.utf8)))].joined(
            separator: "\n"
        )
        var key = SymmetricKey(data: Data("AWS4\(self.secretAccessKey)".utf8))
        for part in [day, self.region, "s3", "aws4_request"] {
            key = SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: Data(part.utf8), using: key)))
        }
        let signature = Self.hex(HMAC<SHA256>.authenticationCode(for: Data(toSign.utf8), using: key))
        all["authorization"] =
            "AWS4-HMAC-SHA256 Credential=\(self.accessKeyID)/\(scope), SignedHeaders=\(names.joined(separator: ";")), Signature=\(signature)"
        return all
    }

    /// A path segment as SigV4 encodes it: unreserved characters kept, every other byte as %XX.
    public static func encode(_ segment: String) -> String {
        let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~".utf8)
        return segment.utf8.map { unreserved.contains($0) ? String(UnicodeScalar($0)) : String(format: "%%%02X", $0) }
            .joined()
    }

    static func timestamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let (year, month, day) = (parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1)
        return String(
            format: "%04d%02d%02dT%02d%02d%02dZ",
            year,
            month,
            day,
            parts.hour ?? 0,
            parts.minute ?? 0,
            parts.second ?? 0
        )
    }

    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }
}
