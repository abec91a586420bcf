import FitCircleCore
import Foundation
import HTTPTypes
import HummingbirdTesting

extension TestApp {
    /// Saves `person`'s profile under `name` with `visibility` over the defaults of `validProfile` (age and
    /// height to friends, weight to themselves).
    public func setVisibility(of person: TestPerson, name: String, _ visibility: [String: String]) async throws {
        var profile = TestApp.validProfile()
        profile["displayName"] = name
        profile["visibility"] = ["age": "friends", "weight": "only_me", "height": "friends"].merging(visibility) { $1 }
        let saved = try await self.request(
            .put,
            "/api/user/profile",
            token: try await person.token(self),
            json: profile
        )
        guard saved.status == .ok else {
            throw TestSetupError("saving the profile answered \(saved.status): \(saved.text)")
        }
    }

    /// Uploads a small PNG as `person`'s photo.
    public func uploadPhoto(of person: TestPerson) async throws {
        let upload = try await self.request(
            .post,
            "/api/user/profile/photo",
            token: try await person.token(self),
            body: Data(TestImages.png(withText: nil)),
            headers: [.contentType: "application/octet-stream"]
        )
        guard upload.status == .ok else { throw TestSetupError("the upload answered \(upload.status): \(upload.text)") }
    }
}
