public import Foundation

/// What one attempt to deliver a message to one target (a device, an address, a webhook) came to, as the
/// provider's answer says. Every answer is classified; nothing is "probably fine".
public enum DeliveryOutcome: Equatable, Sendable {
    /// The provider accepted the message.
    case delivered
    /// Worth trying again (5xx, 429, a timeout, a dropped connection), no sooner than `after` when the
    /// provider said so (`Retry-After`).
    case retryable(reason: String, after: TimeInterval? = nil)
    /// This message will never go (too large, a bad topic): no retry; the target stays.
    case permanent(reason: String)
    /// The target is gone for good (APNs 410 `Unregistered`, FCM `UNREGISTERED`): deactivate it at once.
    case targetDead(reason: String)
    /// The target looks wrong but may not be (APNs `BadDeviceToken`: often a sandbox token sent to
    /// production): deactivate it only when it happens again.
    case targetSuspect(reason: String)

    public var isDelivered: Bool { self == .delivered }

    /// The outcome's name as it is logged and shown in a notification's history.
    public var name: String {
        switch self {
        case .delivered: "delivered"
        case .retryable: "retryable"
        case .permanent: "permanent"
        case .targetDead: "target_dead"
        case .targetSuspect: "target_suspect"
        }
    }

    public var reason: String? {
        switch self {
        case .delivered: nil
        case .retryable(let reason, _), .permanent(let reason), .targetDead(let reason), .targetSuspect(let reason):
            reason
        }
    }
}

/// The classification of each provider's answers (pure, so every rule is tested on its own).
public enum ProviderAnswer {
    /// APNs (HTTP/2): the status and the `reason` of its JSON body.
    /// See Apple's "Handling notification responses from APNs".
    public static func apns(status: Int, reason: String?, retryAfter: TimeInterval? = nil) -> DeliveryOutcome {
        let reason = reason ?? "HTTP \(status)"
        switch (status, reason) {
        case (200, _): return .delivered
        case (410, _): return .targetDead(reason: reason)
        case (400, "BadDeviceToken"): return .targetSuspect(reason: reason)
        case (400, "DeviceTokenNotForTopic"): return .targetDead(reason: reason)
        // The provider token expired or was refused: a new one is signed and the message tried again.
        case (403, "ExpiredProviderToken"), (403, "InvalidProviderToken"): return .retryable(reason: reason)
        case (429, _), (500...599, _): return .retryable(reason: reason, after: retryAfter)
        default: return .permanent(reason: reason)
        }
    }

    /// FCM HTTP v1: the status and the `errorCode` of the error's `FcmError` detail (else its `status`).
    public static func fcm(status: Int, errorCode: String?, retryAfter: TimeInterval? = nil) -> DeliveryOutcome {
        let reason = errorCode ?? "HTTP \(status)"
        switch (status, errorCode) {
        case (200, _): return .delivered
        case (_, "UNREGISTERED"), (404, _): return .targetDead(reason: reason)
        case (_, "SENDER_ID_MISMATCH"): return .targetDead(reason: reason)
        // The access token expired or was revoked: a new one is fetched and the message tried again.
        case (401, _): return .retryable(reason: reason)
        case (429, _), (500...599, _): return .retryable(reason: reason, after: retryAfter)
        default: return .permanent(reason: reason)
        }
    }

    /// An HTTP API of our own kind (webhooks, an email API): 2xx accepted; 408, 429 and 5xx retried.
    public static func http(status: Int, retryAfter: TimeInterval? = nil) -> DeliveryOutcome {
        switch status {
        case 200...299: .delivered
        case 408, 429, 500...599: .retryable(reason: "HTTP \(status)", after: retryAfter)
        default: .permanent(reason: "HTTP \(status)")
        }
    }

    /// An SMTP reply to the message (RFC 5321): 2xx accepted, 4xx transient, 5xx permanent (an address
    /// the server refuses stays the user's: only they can change it).
    public static func smtp(code: Int, text: String) -> DeliveryOutcome {
        let reason = "\(code) \(text)"
        switch code {
        case 200...299: return .delivered
        case 400...499: return .retryable(reason: reason)
        default: return .permanent(reason: reason)
        }
    }

    /// `Retry-After` as seconds or an HTTP date (RFC 9110 §10.2.3), relative to `now`.
    public static func retryAfter(_ header: String?, now: Date) -> TimeInterval? {
        guard let header = header?.trimmingCharacters(in: .whitespaces), !header.isEmpty else { return nil }
        if let seconds = TimeInterval(header), seconds >= 0 { return seconds }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: header) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }
}
