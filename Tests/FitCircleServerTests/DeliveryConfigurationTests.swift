import Configuration
import FitCircleDelivery
import FitCircleServer
import Foundation
import Testing

/// The delivery settings of `fitcircle serve` (README's table): what each channel needs, and what is refused.
struct DeliveryConfigurationTests {
    static func configuration(_ values: [String: String]) throws -> AppConfiguration {
        var keyed: [AbsoluteConfigKey: ConfigValue] = [:]
        for (key, value) in values {
            // Booleans as the environment provider decodes them ("true", "yes", "1").
            keyed[AbsoluteConfigKey(stringLiteral: key)] = .init(
                value == "true" ? .bool(true) : .string(value),
                isSecret: false
            )
        }
        return try AppConfiguration(
            reader: ConfigReader(providers: [InMemoryProvider(values: keyed)]),
            workingDirectory: URL(fileURLWithPath: "/tmp")
        )
    }

    @Test func emailSettingsAreReadWithTheirDefaults() throws {
        let configuration = try Self.configuration([
            "delivery.smtp.host": "smtp.example.com", "delivery.smtp.username": "mailer",
            "email.from": "FitCircle Team <hello@fitcircle.app>",
            "server.publicUrl": "https://api.fitcircle.app",
        ])
        let smtp = try #require(configuration.smtp)
        #expect(
            smtp.port == 587 && smtp.security == .startTLS && smtp.username == "mailer"
                && smtp.clientName == "api.fitcircle.app"
        )
        #expect(configuration.emailFrom == Mailbox("hello@fitcircle.app", name: "FitCircle Team"))
        #expect(
            configuration.preferencesURL == "fitcircle://settings/notifications"
                && configuration.unsubscribeMailbox == nil
        )
        #expect(try Self.configuration([:]).smtp == nil && (try Self.configuration([:])).emailAPIKey == nil)
        let forwarding = try Self.configuration([
            "analytics.forward.url": "https://api.segment.io/v1/batch", "analytics.forward.writeKey": "wk",
        ])
        #expect(
            forwarding.analyticsForwardURL == "https://api.segment.io/v1/batch" && forwarding.analyticsWriteKey == "wk"
        )
        #expect(try Self.configuration([:]).analyticsForwardURL == nil)
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
        ] {
            #expect(throws: InvalidSetting.self) { try Self.configuration(values) }
            do { _ = try Self.configuration(values) } catch let error as InvalidSetting { #expect(error.key == key) }
        }
    }

    @Test func devLoginIsOnlyForLoopbackUnlessTheDangerIsNamed() throws {
        for host in ["127.0.0.1", "localhost", "::1", "127.0.0.2"] {
            #expect(try Self.configuration(["devLogin": "true", "host": host]).auth.devLogin)
        }
        let overridden = try Self.configuration([
            "devLogin": "true", "host": "0.0.0.0", "devLogin.dangerouslyAllowOnPublicHost": "true",
        ])
        #expect(overridden.auth.devLogin)
        #expect(try Self.configuration(["host": "0.0.0.0"]).auth.devLogin == false)
    }
}
