import AsyncHTTPClient
public import Configuration
public import FitCircleCore
public import Foundation

/// Where uploaded files (profile photos) live. A node's own directory serves a single node; a cluster
/// keeps its nodes stateless with the database or an S3-compatible bucket.
public enum BlobStoreSetting: Sendable {
    case disk(URL)
    case database
    case s3(S3BlobStore.Settings)

    /// - `blobs.store` (`disk`, `database` or `s3`; default `disk`), `blobs.directory` (for `disk`, default
    ///   `./fitcircle-blobs`), `blobs.s3.bucket`, `blobs.s3.region` (default `us-east-1`), `blobs.s3.endpoint`
    ///   (default `https://s3.<region>.amazonaws.com`), `blobs.s3.accessKeyId`, `blobs.s3.secretAccessKey`
    public init(reader: ConfigReader, workingDirectory: URL) throws {
        let directory = URL(
            fileURLWithPath: reader.string(forKey: "blobs.directory", default: "fitcircle-blobs"),
            relativeTo: workingDirectory
        )
        let kind = reader.string(forKey: "blobs.store", default: "disk")
        switch kind {
        case "disk": self = .disk(directory)
        case "database": self = .database
        case "s3":
            let region = reader.string(forKey: "blobs.s3.region", default: "us-east-1")
            let endpoint = reader.string(forKey: "blobs.s3.endpoint", default: "https://s3.\(region).amazonaws.com")
            guard let url = URL(string: endpoint), url.scheme == "https" || url.scheme == "http", url.host != nil else {
                throw InvalidSetting(key: "blobs.s3.endpoint", expected: "an http(s) URL", found: endpoint)
            }
            func required(_ value: String?, _ key: String) throws -> String {
                guard let value, !value.isEmpty else {
                    throw InvalidSetting(key: key, expected: "a value, since blobs.store is s3", found: "")
                }
                return value
            }
            self = .s3(
                S3BlobStore.Settings(
                    endpoint: url,
                    bucket: try required(reader.string(forKey: "blobs.s3.bucket"), "blobs.s3.bucket"),
                    region: region,
                    accessKeyID: try required(reader.string(forKey: "blobs.s3.accessKeyId"), "blobs.s3.accessKeyId"),
                    secretAccessKey: try required(
                        reader.string(forKey: "blobs.s3.secretAccessKey", isSecret: true),
                        "blobs.s3.secretAccessKey"
                    )
                )
            )
        default:
            throw InvalidSetting(key: "blobs.store", expected: "disk, database or s3", found: kind)
        }
    }
}

extension BlobStoreSetting {
    /// The store this setting names, over `store` for `database`.
    public func make(store: Store, now: @escaping @Sendable () -> Date) -> any BlobStore {
        switch self {
        case .disk(let directory): LocalDiskBlobStore(directory: directory)
        case .database: DatabaseBlobStore(store: store)
        case .s3(let settings): S3BlobStore(settings: settings, http: .shared, now: now)
        }
    }
}
