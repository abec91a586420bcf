import FitCircleCore
import Foundation
import Testing

/// Every provider answer is classified (issue 8): delivered, retryable (honouring Retry-After), permanent for
/// the message, or a dead or suspect target.
struct ProviderAnswerTests {
    @Test
    func apnsAnswers() {
        #expect(ProviderAnswer.apns(status: 200, reason: nil) == .delivered)
        #expect(ProviderAnswer.apns(status: 410, reason: "Unregistered") == .targetDead(reason: "Unregistered"))
        #expect(ProviderAnswer.apns(status: 400, reason: "BadDeviceToken") == .targetSuspect(reason: "BadDeviceToken"))
        #expect(
            ProviderAnswer.apns(status: 400, reason: "DeviceTokenNotForTopic")
                == .targetDead(reason: "DeviceTokenNotForTopic")
        )
        #expect(ProviderAnswer.apns(status: 413, reason: "PayloadTooLarge") == .permanent(reason: "PayloadTooLarge"))
        #expect(ProviderAnswer.apns(status: 400, reason: "BadTopic") == .permanent(reason: "BadTopic"))
        #expect(
            ProviderAnswer.apns(status: 403, reason: "ExpiredProviderToken")
                == .retryable(reason: "ExpiredProviderToken")
        )
        #expect(
            ProviderAnswer.apns(status: 429, reason: "TooManyRequests", retryAfter: 30)
                == .retryable(reason: "TooManyRequests", after: 30)
        )
        #expect(
            ProviderAnswer.apns(status: 503, reason: "ServiceUnavailable") == .retryable(reason: "ServiceUnavailable")
        )
    }

    @Test
    func fcmAnswers() {
        #expect(ProviderAnswer.fcm(status: 200, errorCode: nil) == .delivered)
        #expect(ProviderAnswer.fcm(status: 404, errorCode: "UNREGISTERED") == .targetDead(reason: "UNREGISTERED"))
        #expect(ProviderAnswer.fcm(status: 400, errorCode: "UNREGISTERED") == .targetDead(reason: "UNREGISTERED"))
        #expect(
            ProviderAnswer.fcm(status: 403, errorCode: "SENDER_ID_MISMATCH")
                == .targetDead(reason: "SENDER_ID_MISMATCH")
        )
        #expect(
            ProviderAnswer.fcm(status: 400, errorCode: "INVALID_ARGUMENT") == .permanent(reason: "INVALID_ARGUMENT")
        )
        #expect(
            ProviderAnswer.fcm(status: 401, errorCode: "THIRD_PARTY_AUTH_ERROR")
                == .retryable(reason: "THIRD_PARTY_AUTH_ERROR")
        )
        #expect(
            ProviderAnswer.fcm(status: 429, errorCode: "QUOTA_EXCEEDED", retryAfter: 60)
                == .retryable(reason: "QUOTA_EXCEEDED", after: 60)
        )
        #expect(ProviderAnswer.fcm(status: 500, errorCode: nil) == .retryable(reason: "HTTP 500"))
    }

    @Test
    func httpAndSMTPAnswers() {
        #expect(ProviderAnswer.http(status: 204) == .delivered)
        #expect(ProviderAnswer.http(status: 408) == .retryable(reason: "HTTP 408"))
        #expect(ProviderAnswer.http(status: 429, retryAfter: 5) == .retryable(reason: "HTTP 429", after: 5))
        #expect(ProviderAnswer.http(status: 502) == .retryable(reason: "HTTP 502"))
        #expect(ProviderAnswer.http(status: 404) == .permanent(reason: "HTTP 404"))
        #expect(ProviderAnswer.smtp(code: 250, text: "OK") == .delivered)
        #expect(ProviderAnswer.smtp(code: 451, text: "try later") == .retryable(reason: "451 try later"))
        #expect(ProviderAnswer.smtp(code: 550, text: "no such user") == .permanent(reason: "550 no such user"))
    }

    @Test
    func retryAfterIsSecondsOrAnHTTPDate() {
        let now = Date(timeIntervalSince1970: 1_772_442_000)  // Mon, 02 Mar 2026 09:00:00 GMT
        #expect(ProviderAnswer.retryAfter("120", now: now) == 120)
        #expect(ProviderAnswer.retryAfter("Mon, 02 Mar 2026 09:01:30 GMT", now: now) == 90)
        #expect(ProviderAnswer.retryAfter("Mon, 02 Mar 2026 08:00:00 GMT", now: now) == 0)
        #expect(ProviderAnswer.retryAfter("soon", now: now) == nil)
        #expect(ProviderAnswer.retryAfter(nil, now: now) == nil)
    }
}
