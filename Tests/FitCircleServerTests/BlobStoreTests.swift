import AsyncHTTPClient
import FitCircleCore
import FitCircleStore
import FitCircleTesting
import Foundation
import Testing

/// Where photos live when nodes are stateless: the database, or an S3-compatible bucket (moto's server,
/// PyPI's `moto[server]`, on loopback), and the signature S3 asks for.
struct BlobStoreTests {
    /// AWS's own example of a signed request ("Example: GET Object" of the Signature Version 4 docs).
    @Test func theSignatureIsTheOneAWSDocumentsForItsExample() {
        let signer = S3Signature(
            region: "us-east-1",
            accessKeyID: "AKIAIOSFODNN7EXAMPLE",
            secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
        )
        let headers = signer.sign(
            method: "GET",
            path: "/test.txt",
            query: "",
            headers: ["Host": "examplebucket.s3.amazonaws.com", "Range": "bytes=0-9"],
            payload: Data(),
            at: Date(timeIntervalSince1970: 1_369_353_600)
        )  // 2013-05-24T00:00:00Z
        #expect(
            headers["authorization"]
                == "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
                + "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41"
        )
        #expect(S3Signature.encode("photos/ü b") == "photos%2F%C3%BC%20b")
    }

    static func roundTrip(_ blobs: any BlobStore) async throws {
        #expect(try await blobs.get("photos/u1/none") == nil)
        try await blobs.put(Data([1, 2, 3]), contentType: "image/png", key: "photos/u1/a")
        #expect(try await blobs.get("photos/u1/a") == Blob(data: Data([1, 2, 3]), contentType: "image/png"))
        let large = Data((0..<(5 << 20)).map { UInt8($0 % 251) })
        try await blobs.put(large, contentType: "image/jpeg", key: "photos/u1/a")  // replaced
        #expect(try await blobs.get("photos/u1/a") == Blob(data: large, contentType: "image/jpeg"))
        try await blobs.delete("photos/u1/a")
        try await blobs.delete("photos/u1/a")  // a missing key is no error
        #expect(try await blobs.get("photos/u1/a") == nil)
    }

    @Test(arguments: Backend.available)
    func theDatabaseKeepsBlobsForEveryNode(_ backend: Backend) async throws {
        try await withStore(backend) { store in try await Self.roundTrip(DatabaseBlobStore(store: store)) }
    }

    @Test func anS3BucketKeepsBlobs() async throws {
        try await MotoServer.with { endpoint in
            try await Self.roundTrip(
                S3BlobStore(settings: MotoServer.settings(endpoint), http: .shared, now: { Date() })
            )
        }
    }
}

extension BlobStoreTests {
    /// The server configured for a bucket: a photo uploaded through the API is an object there, served
    /// back from it, and gone with the account.
    @Test func aServerKeepsPhotosInTheBucketAndDeletesThemWithTheAccount() async throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: ServerProcess.binary.path),
            "build the fitcircle product first"
        )
        try await MotoServer.with { endpoint in
            let location = try await Backend.sqlite.makeLocation()
            let server = try await ServerProcess.start(
                database: location.serveURL,
                environment: [
                    "FITCIRCLE_BLOBS_STORE": "s3", "FITCIRCLE_BLOBS_S3_ENDPOINT": endpoint.absoluteString,
                    "FITCIRCLE_BLOBS_S3_BUCKET": "fitcircle",
                    "FITCIRCLE_BLOBS_S3_ACCESS_KEY_ID": "test", "FITCIRCLE_BLOBS_S3_SECRET_ACCESS_KEY": "test-secret",
                ]
            )
            defer { server.kill() }
            let ana = try await server.member("ana@example.com")
            let png = Data(TestImages.png(withText: nil))
            #expect(
                try await server.send(
                    .POST,
                    "/api/user/profile/photo",
                    token: ana.token,
                    body: png,
                    contentType: "image/png"
                ).0 == 200
            )
            func objects() async throws -> String {
                let listing = try await HTTPClient.shared.execute(
                    HTTPClientRequest(url: "\(endpoint.absoluteString)/fitcircle?list-type=2"),
                    timeout: .seconds(5)
                )
                return String(buffer: try await listing.body.collect(upTo: 1 << 20))
            }
            #expect(try await objects().contains("photos/\(ana.id)/"))
            let served = try await server.get("/api/user/profile/photo", token: ana.token)
            #expect(served.0 == 200 && served.1 == png)
            #expect(try await server.post("/api/user", token: ana.token, json: [:], method: .DELETE).0 == 204)
            #expect(try await !objects().contains(ana.id))
        }
    }
}

/// moto's S3 server on a loopback port, with the bucket `fitcircle` made.
enum MotoServer {
    static func settings(_ endpoint: URL) -> S3BlobStore.Settings {
        S3BlobStore.Settings(
            endpoint: endpoint,
            bucket: "fitcircle",
            region: "us-east-1",
            accessKeyID: "test",
            secretAccessKey: "test-secret"
        )
    }

    static func with(_ body: (URL) async throws -> Void) async throws {
        let executable = try #require(
            ["/usr/local/bin/moto_server", "/root/.pyenv/shims/moto_server", "/usr/bin/moto_server"].first {
                FileManager.default.isExecutableFile(atPath: $0)
            }
                ?? ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":").map { "\($0)/moto_server" }.first
            { FileManager.default.isExecutableFile(atPath: $0) },
            "moto_server (pip install 'moto[server]') is needed"
        )
        let port = Int.random(in: 20_000..<32_000)
        let process = try ChildProcess(executable, ["-H", "127.0.0.1", "-p", "\(port)"], errors: .discard)
        defer {
            process.signal(SIGKILL)
            process.waitUntilExit()
        }
        let endpoint = URL(string: "http://127.0.0.1:\(port)")!
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/fitcircle")
        request.method = .PUT
        var made = false
        for _ in 0..<100 where !made {
            made = (try? await HTTPClient.shared.execute(request, timeout: .seconds(2)).status.code) == 200
            if !made { try await Task.sleep(for: .milliseconds(100)) }
        }
        try #require(made, "moto_server did not start on port \(port)")
        try await body(endpoint)
    }
}
