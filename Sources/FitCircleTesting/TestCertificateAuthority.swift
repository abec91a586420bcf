import Crypto
import Foundation
import SwiftASN1
import X509

/// A certificate authority made up for the tests, and a certificate it issued for `localhost` and
/// 127.0.0.1: fake providers serve TLS with the leaf, clients trust the CA, so nothing is "insecure".
public struct TestCertificateAuthority: Sendable {
    /// The CA's certificate (PEM), for a client's trust roots.
    public let certificatePEM: String
    /// The server's certificate (PEM), issued by the CA.
    public let leafPEM: String
    /// The server's private key (PEM, PKCS #8).
    public let leafKeyPEM: String

    /// One per test process: making certificates takes a few milliseconds, not nothing.
    public static let shared = try! TestCertificateAuthority()

    private init() throws {
        let now = Date()
        let caKey = P256.Signing.PrivateKey()
        let caName = try DistinguishedName { CommonName("FitCircle Test CA") }
        let ca = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: Certificate.PublicKey(caKey.publicKey),
            notValidBefore: now.addingTimeInterval(-3_600),
            notValidAfter: now.addingTimeInterval(30 * 86_400),
            issuer: caName,
            subject: caName,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true))
            },
            issuerPrivateKey: Certificate.PrivateKey(caKey)
        )
        let leafKey = P256.Signing.PrivateKey()
        let leaf = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: Certificate.PublicKey(leafKey.publicKey),
            notValidBefore: now.addingTimeInterval(-3_600),
            notValidAfter: now.addingTimeInterval(30 * 86_400),
            issuer: caName,
            subject: try DistinguishedName { CommonName("localhost") },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames([
                    .dnsName("localhost"), .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1])),
                ])
            },
            issuerPrivateKey: Certificate.PrivateKey(caKey)
        )
        self.certificatePEM = try ca.serializeAsPEM().pemString
        self.leafPEM = try leaf.serializeAsPEM().pemString
        self.leafKeyPEM = leafKey.pemRepresentation
    }
}
