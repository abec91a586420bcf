import Configuration
import FitCircleCore
import FitCircleDelivery
import FitCircleServer
import Foundation
import Testing

/// The settings of `fitcircle serve` (README's table), read per concern: defaults, and what is refused by key.
struct ConfigurationTests {
    static func configuration(_ values: [String: String]) throws -> FitCircleConfiguration {
        // Booleans as the environment provider decodes them ("true", "yes", "1").
        try FitCircleConfiguration(
            values.mapValues { $0 == "true" ? .bool(true) : .string($0) },
            workingDirectory: URL(fileURLWithPath: "/tmp")
        )
    }

    @Test func emailSettingsAreReadWithTheirDefaults() throws {
        let configuration = try Self.configuration([
            "delivery.smtp.host": "smtp.example.com", "delivery.smtp.username": "mailer",
            "email.from": "FitCircle Team <hello@fitcircle.app>",
            "server.publicUrl": "https://api.fitcircle.app",
        ])
        let smtp = try #require(configuration.delivery.smtp)
        #expect(
            smtp.port == 587 && smtp.security == .startTLS && smtp.username == "mailer"
                && smtp.clientName == "api.fitcircle.app"
        )
        let email = configuration.delivery.email
        #expect(email.from == Mailbox("hello@fitcircle.app", name: "FitCircle Team"))
        #expect(
            email.preferencesURL == "fitcircle://settings/notifications"
                && email.unsubscribeMailbox == "unsubscribe@fitcircle.app"
                && email.publicURL == "https://api.fitcircle.app"
        )
        let none = try Self.configuration([:]).delivery
        #expect(
            none.smtp == nil && none.emailAPIKey == nil && none.apns == nil && none.fcm == nil && none.webhook == nil
        )
        let forwarding = try Self.configuration([
            "analytics.forward.url": "https://api.segment.io/v1/batch", "analytics.forward.writeKey": "wk",
        ])
        #expect(
            forwarding.analytics.forwardURL == "https://api.segment.io/v1/batch"
                && forwarding.analytics.writeKey == "wk"
        )
        #expect(try Self.configuration([:]).analytics.forwardURL == nil)
    }

    @Test func otherOriginsAreListedByComma() throws {
        let listed = try Self.configuration(["server.corsOrigins": " https://app.example.com ,http://localhost:3000"])
        #expect(listed.node.web.corsOrigins == ["https://app.example.com", "http://localhost:3000"])
        #expect(try Self.configuration([:]).node.web.corsOrigins.isEmpty)
    }

    @Test func settingsThatCannotWorkAreRefusedByKey() throws {
        for (values, key) in [
            (["delivery.smtp.host": "smtp.example.com", "delivery.smtp.security": "ssl"], "delivery.smtp.security"),
            (["delivery.smtp.host": "smtp.example.com", "delivery.emailApi.key": "re_123"], "delivery.emailApi.key"),
            (["email.from": "FitCircle"], "email.from"),
            (["delivery.apns.key": "/keys/AuthKey.p8", "delivery.apns.keyId": "KEY1"], "delivery.apns.teamId"),
            (["devLogin": "true", "host": "0.0.0.0"], "devLogin"),
            (["devLogin": "true", "host": "192.168.1.20"], "devLogin"),
            (["analytics.forward.url": "segment.example.com/v1/batch"], "analytics.forward.url"),
            // Each concern refuses its own keys: the store, the blobs, the node, the webhook channel.
            (["sqlite.synchronous": "off"], "sqlite.synchronous"), (["blobs.store": "ftp"], "blobs.store"),
            (["metrics.token": "short"], "metrics.token"),
            (["server.corsOrigins": "https://app.example.com/path"], "server.corsOrigins"),
            (["server.corsOrigins": "https://a.example.com, app.example.com"], "server.corsOrigins"),
            (
                ["delivery.webhook.url": "https://hooks.example.com", "delivery.webhook.secret": "short"],
                "delivery.webhook.secret"
            ),
        ] {
            #expect(throws: InvalidSetting.self) { try Self.configuration(values) }
            do { _ = try Self.configuration(values) } catch let error as InvalidSetting { #expect(error.key == key) }
        }
    }

    @Test func devLoginIsOnlyForLoopbackUnlessTheDangerIsNamed() throws {
        for host in ["127.0.0.1", "localhost", "::1", "127.0.0.2"] {
            #expect(try Self.configuration(["devLogin": "true", "host": host]).auth.configuration.devLogin)
        }
        let overridden = try Self.configuration([
            "devLogin": "true", "host": "0.0.0.0", "devLogin.dangerouslyAllowOnPublicHost": "true",
        ])
        #expect(overridden.auth.configuration.devLogin)
        #expect(try Self.configuration(["host": "0.0.0.0"]).auth.configuration.devLogin == false)
    }
}
