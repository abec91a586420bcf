public import FitCircleClient
public import FitCircleCore
import FitCircleStore

extension TestApp {
    /// Sends a notification of `type` as an operator would (`POST /api/notifications/send`), to Ana
    /// (`ana@example.com`) unless `user` is given: the decision as the API answers it.
    @discardableResult
    public func sendNotification(
        _ type: String,
        key: String? = nil,
        to user: String? = nil,
        data: [String: String] = ["streak": "14", "next": "15"]
    ) async throws -> Components.Schemas.Notification {
        let target: String
        if let user { target = user } else { target = try await self.devSignIn().user.id }
        let request = Components.Schemas.NotificationSendRequest(
            userId: target,
            _type: type,
            data: .init(additionalProperties: data),
            dedupeKey: key
        )
        return try await self.api(try await self.operatorToken()).sendNotification(body: .json(request)).ok.body.json
    }

    /// The decisions about `type` for `person` (the newest ten), once the queued raises have run.
    public func notifications(of person: TestPerson, type: String) async throws -> [NotificationRecord] {
        try await self.runJobs()
        return try await self.store.read { tx in
            try await tx.notifications.list(of: User.ID(person.id), type: type, limit: 10)
        }
    }
}
