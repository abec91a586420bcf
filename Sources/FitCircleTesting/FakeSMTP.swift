public import FitCircleDelivery
import Foundation
import NIOSSL

/// A real SMTP server on loopback (Python's aiosmtpd, `Tests/Fixtures/fake_smtp.py`) that the tests start:
/// STARTTLS or implicit TLS with a certificate from `TestCertificateAuthority`, AUTH required after TLS.
/// Python's own email parser reads every message it accepts; `received` is what it found.
public final class FakeSMTP: Sendable {
    public static let user = "mailer"
    public static let password = "s3cret-pässword"

    /// One accepted message as Python's `email` package parsed it.
    public struct Received: Decodable, Sendable {
        public struct Part: Decodable, Sendable {
            public var contentType: String
            public var charset: String?
            public var content: String
        }
        public var mailFrom: String
        public var rcptTos: [String]
        public var tls: Bool
        public var authenticated: Bool
        public var from: String
        public var to: String
        /// Decoded (RFC 2047 words undone).
        public var subject: String
        public var messageId: String
        public var date: String
        public var contentType: String
        public var headers: [String: String]
        public var parts: [Part]
        /// What the parser found wrong with the message; empty for a well-formed one.
        public var defects: [String]
        public var raw: String
    }

    public let port: Int
    public let security: SMTPTransport.Security
    private let directory: URL

    private init(port: Int, security: SMTPTransport.Security, directory: URL) {
        self.port = port
        self.security = security
        self.directory = directory
    }

    /// Settings for an `SMTPTransport` that trusts the fake's certificate; `password` may be changed to see
    /// AUTH refused.
    public func settings(password: String = FakeSMTP.password) -> SMTPTransport.Settings {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates([
            try! NIOSSLCertificate(bytes: Array(TestCertificateAuthority.shared.certificatePEM.utf8), format: .pem)
        ])
        return SMTPTransport.Settings(
            host: "localhost",
            port: self.port,
            security: self.security,
            username: Self.user,
            password: password,
            clientName: "fitcircle.test",
            tls: tls
        )
    }

    /// The messages accepted so far, in order.
    public var received: [Received] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: self.directory.path)) ?? []).filter {
            $0.hasSuffix(".json")
        }.sorted()
        return names.compactMap { name in
            (try? Data(contentsOf: self.directory.appendingPathComponent(name))).flatMap {
                try? JSONDecoder().decode(Received.self, from: $0)
            }
        }
    }

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Tests/Fixtures/fake_smtp.py")

    /// Runs `body` with the server listening; it stops afterwards.
    /// - Parameter loginOnly: offer AUTH LOGIN and not PLAIN.
    public static func run<Result: Sendable>(
        security: SMTPTransport.Security = .startTLS,
        loginOnly: Bool = false,
        _ body: @Sendable (FakeSMTP) async throws -> Result
    ) async throws -> Result {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fake-smtp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (certificate, key) = (
            directory.appendingPathComponent("cert.pem"), directory.appendingPathComponent("key.pem")
        )
        try TestCertificateAuthority.shared.leafPEM.write(to: certificate, atomically: true, encoding: .utf8)
        try TestCertificateAuthority.shared.leafKeyPEM.write(to: key, atomically: true, encoding: .utf8)
        let output = directory.appendingPathComponent("mail")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)

        let process = try ChildProcess(
            "/usr/bin/env",
            [
                "python3", Self.script.path, "--security", security.rawValue, "--cert", certificate.path, "--key",
                key.path, "--out", output.path,
                "--user", Self.user, "--password", Self.password,
            ] + (loginOnly ? ["--login-only"] : []),
            input: .pipe,
            output: .pipe
        )
        defer {
            // The script ends when its standard input does.
            try? process.input?.close()
            process.waitUntilExit()
        }
        // The script prints "PORT <n>" once it listens (or dies, and the pipe ends).
        var printed = Data()
        while !printed.contains(UInt8(ascii: "\n")) {
            let chunk = process.output!.availableData
            guard !chunk.isEmpty else { throw FakeSMTPDidNotStart(output: String(decoding: printed, as: UTF8.self)) }
            printed.append(chunk)
        }
        guard let line = String(decoding: printed, as: UTF8.self).split(separator: "\n").first, line.hasPrefix("PORT "),
            let port = Int(line.dropFirst(5))
        else {
            throw FakeSMTPDidNotStart(output: String(decoding: printed, as: UTF8.self))
        }
        return try await body(FakeSMTP(port: port, security: security, directory: output))
    }

    struct FakeSMTPDidNotStart: Error, CustomStringConvertible {
        var output: String
        var description: String {
            "the fake SMTP server did not start (is aiosmtpd installed? `pip install aiosmtpd`): \(self.output)"
        }
    }
}
