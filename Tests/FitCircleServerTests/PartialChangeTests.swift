import FitCircleTesting
import Foundation
import HTTPTypes
import Testing

/// PATCH changes the fields it is given and keeps the others; PUT replaces (issue 46, review I41: renaming a
/// circle needed its metric resent, and the preferences' PUTs merged).
struct PartialChangeTests {
    @Test(arguments: Backend.available)
    func patchingTheProfileKeepsWhatItLeavesOut(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.devSignIn("lee@example.com").accessToken
            // A profile not onboarded has no age or weight to keep: the first change must give them.
            let early = try await app.request(.patch, "/api/user/profile", token: token, json: ["displayName": "Lee"])
            #expect(early.status == .unprocessableContent, "\(early.text)")
            #expect(Set(try early.problem().fields) == ["age", "weight"], "\(early.text)")
            let onboarded = try await app.request(
                .patch,
                "/api/user/profile",
                token: token,
                json: [
                    "displayName": "Lee", "age": 40, "weight": ["value": 171.4, "unit": "lb"], "gender": "female",
                    "height": ["unit": "ft_in", "feet": 5, "inches": 7], "timeZone": "America/Denver",
                ] as [String: Any]
            )
            #expect(onboarded.status == .ok, "\(onboarded.text)")
            #expect(try onboarded.jsonObject()["onboardingCompleted"] as? Bool == true, "\(onboarded.text)")

            let aged = try await app.request(.patch, "/api/user/profile", token: token, json: ["age": 41])
            #expect(aged.status == .ok, "\(aged.text)")
            let profile = try aged.jsonObject()
            #expect(profile["age"] as? Int == 41)
            #expect(profile["displayName"] as? String == "Lee")
            #expect(profile["timeZone"] as? String == "America/Denver")
            #expect(profile["gender"] as? String == "female")
            // Kept exactly as entered, not converted to kilograms and back.
            let weight = try #require(profile["weight"] as? [String: Any], "\(aged.text)")
            #expect(weight["value"] as? Double == 171.4 && weight["unit"] as? String == "lb", "\(aged.text)")
            #expect((profile["height"] as? [String: Any])?["feet"] as? Int == 5, "\(aged.text)")

            // Refused as a whole: nothing changes.
            let refused = try await app.request(
                .patch,
                "/api/user/profile",
                token: token,
                json: ["age": 5, "displayName": "Someone else"] as [String: Any]
            )
            #expect(refused.status == .unprocessableContent)
            #expect(try refused.problem().fields == ["age"], "\(refused.text)")
            let after = try await app.request(.get, "/api/user/profile", token: token)
            #expect(try after.jsonObject()["displayName"] as? String == "Lee")

            // PUT replaces: a height left out is no height any more.
            let replaced = try await app.request(.put, "/api/user/profile", token: token, json: TestApp.validProfile())
            #expect(replaced.status == .ok)
            #expect(try replaced.jsonObject()["height"] == nil, "\(replaced.text)")
        }
    }

    @Test(arguments: Backend.available)
    func patchingACircleRenamesItWithoutItsMetricAndPutReplaces(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let owner = try await app.onboardedUser("owner@example.com")
            let created = try await app.request(
                .post,
                "/api/fitcircles",
                token: owner,
                json: [
                    "name": "Walkers", "metric": "steps", "privacy": "public", "memberLimit": 50,
                    "description": "Every evening",
                ] as [String: Any]
            )
            let id = try #require(try created.jsonObject()["id"] as? String, "\(created.text)")
            let renamed = try await app.request(
                .patch,
                "/api/fitcircles/\(id)",
                token: owner,
                json: ["name": "Striders"]
            )
            #expect(renamed.status == .ok, "\(renamed.text)")
            let circle = try renamed.jsonObject()
            #expect(circle["name"] as? String == "Striders")
            #expect(circle["privacy"] as? String == "public" && circle["memberLimit"] as? Int == 50, "\(renamed.text)")
            #expect(circle["description"] as? String == "Every evening" && circle["metric"] as? String == "steps")

            // The same rules as PUT: a member limit out of bounds is named, and nothing changes.
            let refused = try await app.request(.patch, "/api/fitcircles/\(id)", token: owner, json: ["memberLimit": 1])
            #expect(refused.status == .unprocessableContent)
            #expect(try refused.problem().fields == ["memberLimit"], "\(refused.text)")
            // Members may not change it, as they may not PUT it.
            let member = try await app.onboardedUser("member@example.com")
            let code = try #require(circle["joinCode"] as? String)
            _ = try await app.request(.post, "/api/fitcircles/join", token: member, json: ["code": code])
            let byMember = try await app.request(.patch, "/api/fitcircles/\(id)", token: member, json: ["name": "Mine"])
            #expect(byMember.status == .forbidden, "\(byMember.text)")

            // PUT replaces: what it leaves out takes its default.
            let replaced = try await app.request(
                .put,
                "/api/fitcircles/\(id)",
                token: owner,
                json: ["name": "Striders", "metric": "steps"]
            )
            let whole = try replaced.jsonObject()
            #expect(whole["privacy"] as? String == "private" && whole["memberLimit"] as? Int == 100, "\(replaced.text)")
            #expect(whole["description"] == nil, "\(replaced.text)")
        }
    }

    @Test(arguments: Backend.available)
    func thePreferencesPatchMergesAsTheDeprecatedPutDoes(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.onboardedUser("pat@example.com")
            let before = try await app.request(.get, "/api/notifications/preferences", token: token).jsonObject()
            let patched = try await app.request(
                .patch,
                "/api/notifications/preferences",
                token: token,
                json: ["push": false]
            )
            #expect(patched.status == .ok, "\(patched.text)")
            let after = try patched.jsonObject()
            #expect(after["push"] as? Bool == false)
            #expect(after["reminderTime"] as? String == before["reminderTime"] as? String)
            #expect(after["email"] as? Bool == before["email"] as? Bool)
            let put = try await app.request(.put, "/api/notifications/preferences", token: token, json: ["push": true])
            let replayed = try put.jsonObject()
            #expect(replayed["push"] as? Bool == true && replayed["email"] as? Bool == before["email"] as? Bool)
            // The deprecated PUT says so on every answer (RFC 9745), the PATCH does not.
            // 2026-11-29T00:00:00Z.
            #expect(put.headers[HTTPField.Name("Deprecation")!] == "@1795910400", "\(put.headers)")
            #expect(
                put.headers[HTTPField.Name("Link")!]?.contains(
                    "</docs#updateNotificationPreferences>; rel=\"deprecation\""
                ) == true
            )
            #expect(patched.headers[HTTPField.Name("Deprecation")!] == nil)

            let emails = try await app.request(
                .patch,
                "/api/emails/preferences",
                token: token,
                json: ["enabled": false]
            )
            #expect(emails.status == .ok)
            #expect(try emails.jsonObject()["enabled"] as? Bool == false, "\(emails.text)")
            let now = try await app.request(.get, "/api/notifications/preferences", token: token).jsonObject()
            #expect(now["email"] as? Bool == false && now["push"] as? Bool == true)
        }
    }
}
