import Foundation

/// What a backend may do with a service key (issue 46): each scope names the operator operations of one
/// job — reading the figures, running webhooks, experiments, publishing content, sending a notification,
/// reading the console — and a key reaches only the operations of its scopes. A service acts for no person:
/// every operation of a person's own data, and every other operation, answers 403 to a key.
public enum ServiceScope: String, CaseIterable, Comparable, Sendable {
    case metrics
    case webhooks
    case experiments
    case content
    case notifications
    case console

    /// The operations (the API's operation ids) the scope opens.
    public var operations: Set<String> {
        switch self {
        case .metrics: ["getMetrics"]
        case .webhooks:
            ["listWebhooks", "registerWebhook", "deleteWebhook", "listWebhookDeliveries", "replayWebhookDelivery"]
        case .experiments:
            ["listExperiments", "createExperiment", "getExperiment", "changeExperiment", "getExperimentResults"]
        case .content: ["publishWeeklyContent"]
        case .notifications: ["sendNotification"]
        case .console:
            [
                "findAccounts", "getAccountFile", "listJobs", "retryJob", "listDeliveries", "listAllCircles",
                "listAllCompetitions", "getActiveProfile",
            ]
        }
    }

    /// What it lets a backend do, in words (the command's help, the document).
    public var summary: String {
        switch self {
        case .metrics: "read the operators' figures"
        case .webhooks: "register, list, remove and replay webhooks"
        case .experiments: "make, change and read experiments"
        case .content: "publish weekly content"
        case .notifications: "send a notification of the catalog to a person"
        case .console: "read the console's lists and a person's file, and retry a job"
        }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The scopes a text names, comma-separated (`metrics,webhooks`); nil when one is unknown or none is given.
    public static func parse(_ text: String) -> Set<ServiceScope>? {
        let names = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let scopes = names.compactMap(ServiceScope.init(rawValue:))
        return scopes.isEmpty || scopes.count != names.count ? nil : Set(scopes)
    }
}

public enum ServiceAccess {
    /// Whether a key of `scopes` may call `operation`.
    public static func decide(_ operation: String, scopes: Set<ServiceScope>) -> Access {
        if scopes.contains(where: { $0.operations.contains(operation) }) { return .allowed }
        let needed = ServiceScope.allCases.first { $0.operations.contains(operation) }
        return .forbidden(
            needed.map { "This service key's scopes do not include \($0.rawValue)." }
                ?? "A service key acts for no person: sign in as one to call this."
        )
    }
}
