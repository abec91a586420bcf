import FitCircleClient
import FitCircleCore
import FitCircleTesting
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

struct ProfileTests {
    @Test(arguments: Backend.available)
    func onboardingSavesEveryFieldAndReadsBackInTheUnitsGiven(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.devSignIn().accessToken
            let form: [String: Any] = [
                "displayName": "  Ana Lima ", "age": 34, "weight": ["value": 150, "unit": "lb"],
                "height": ["unit": "ft_in", "feet": 5, "inches": 7], "gender": "female", "timeZone": "America/New_York",
                "visibility": ["age": "only_me", "weight": "friends", "height": "friends"],
            ]
            let saved = try await app.request(.put, "/api/user/profile", token: token, json: form)
            #expect(saved.status == .ok)
            let profile = try await app.api(token).getProfile().ok.body.json
            #expect(profile.displayName == "Ana Lima")
            #expect(profile.age == 34)
            #expect(profile.weight == .init(value: 150, unit: .lb))
            #expect(profile.height == .init(unit: .ftIn, centimeters: 170.2, feet: 5, inches: 7))
            #expect(profile.gender == .female)
            #expect(profile.timeZone == "America/New_York")
            #expect(
                profile.visibility
                    == .init(age: .onlyMe, weight: .friends, height: .friends, photo: .everyone, boardName: .everyone)
            )
            #expect(profile.onboardingCompleted)
            #expect(!profile.onboardingRequired)
        }
    }

    @Test(arguments: Backend.available)
    func anOutOfRangeFieldSavesNothing(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.onboardedUser()
            let before = try await app.request(.get, "/api/user/profile", token: token).text
            var form = TestApp.validProfile(timeZone: "Asia/Tokyo")
            form["displayName"] = "Changed"
            form["age"] = 121
            let response = try await app.request(.put, "/api/user/profile", token: token, json: form)
            #expect(response.status == .unprocessableContent)
            #expect(try response.problemType() == "/problems/validation-failed")
            let errors = try response.problem().fields
            #expect(errors == ["age"])
            #expect(try await app.request(.get, "/api/user/profile", token: token).text == before)
        }
    }

    /// (field, its value as JSON, the field the problem must name)
    @Test(
        arguments: Backend.available,
        [
            ("age", #""x""#, "age"),
            ("age", "34.5", "age"),
            ("weight", #"{"value": 70}"#, "weight.unit"),
            ("weight", #"{"value": 70, "unit": "stone"}"#, "weight.unit"),
            ("timeZone", #""PST""#, "timeZone"),
            ("height", #"{"unit": "cm"}"#, "height.centimeters"),
            ("gender", #""robot""#, "gender"),
            ("displayName", "null", "displayName"),
        ]
    )
    func eachInvalidFieldIsNamed(_ backend: Backend, field: (String, String, String)) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.devSignIn().accessToken
            var form = TestApp.validProfile()
            form[field.0] = try JSONSerialization.jsonObject(with: Data(field.1.utf8), options: .fragmentsAllowed)
            let response = try await app.request(.put, "/api/user/profile", token: token, json: form)
            #expect(response.status == .unprocessableContent, "\(response.text)")
            let errors = try response.problem().fields
            #expect(errors == [field.2])
            #expect(try await app.api(token).getProfile().ok.body.json.onboardingCompleted == false)
        }
    }

    @Test(arguments: Backend.available, ["displayName", "age", "weight", "timeZone"])
    func eachRequiredFieldIsRequired(_ backend: Backend, missing: String) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.devSignIn().accessToken
            var form = TestApp.validProfile()
            form[missing] = nil
            let response = try await app.request(.put, "/api/user/profile", token: token, json: form)
            #expect(response.status == .unprocessableContent)
            #expect((try response.problem().fields.first) == missing)
        }
    }

    @Test(arguments: Backend.available)
    func aPhotoIsRecognisedByItsBytesStoredAndServed(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.onboardedUser()
            let png = Data(TestImages.png(withText: nil))
            let upload = try await app.request(
                .post,
                "/api/user/profile/photo",
                token: token,
                body: png,
                headers: [.contentType: "application/octet-stream"]
            )
            #expect(upload.status == .ok)
            #expect(try upload.decoded(as: Components.Schemas.Profile.self).photoUrl == "/api/user/profile/photo")
            let photo = try await app.request(.get, "/api/user/profile/photo", token: token)
            #expect(photo.status == .ok)
            #expect(photo.headers[.contentType] == "image/png")
            #expect(Data(photo.body.readableBytesView) == png)
        }
    }

    @Test(arguments: Backend.available)
    func aFileThatIsNotAnImageIsRefusedWhateverItsDeclaredType(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.onboardedUser()
            let response = try await app.request(
                .post,
                "/api/user/profile/photo",
                token: token,
                body: Data("<svg onload=alert(1)>".utf8),
                headers: [.contentType: "image/png"]
            )
            #expect(response.status == .unsupportedMediaType)
            let photo = try await app.request(.get, "/api/user/profile/photo", token: token)
            #expect(photo.status == .notFound, "\(photo.text)")
        }
    }

    @Test(arguments: Backend.available)
    func aPhotoLargerThanFiveMegabytesIsRefused(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.onboardedUser()
            let jpeg = Data([0xFF, 0xD8, 0xFF]) + Data(repeating: 0, count: ImageFormat.maximumPhotoBytes)
            let response = try await app.request(
                .post,
                "/api/user/profile/photo",
                token: token,
                body: jpeg,
                headers: [.contentType: "image/jpeg"]
            )
            #expect(response.status == .contentTooLarge)
            #expect(try response.problemType() == "/problems/payload-too-large")
        }
    }

    @Test(arguments: Backend.available)
    func theConfigurationShowsTheActiveProfile(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "pushups") { app async throws in
            let token = try await app.devSignIn().accessToken
            let config = try await app.api(token).getConfig().ok.body.json
            #expect(config.profile == "pushups")
            #expect(config.weekStartsOn == .monday)
            #expect(!config.onboardingRequired)
            #expect(config.signIn == .init(google: true, apple: true, dev: true))
            #expect(config.reactions == ["👍", "🔥", "💪"])
            #expect(config.goals == .init(daily: [.pushups], weekly: [.pushups]))
        }
    }

    @Test(arguments: Backend.available)
    func underAProfileThatAllowsSkippingANewUserStartsFromDefaults(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "pushups") { app async throws in
            let user = try await app.devSignIn().user
            #expect(user.onboardingCompleted)
            #expect(user.onboardingRequired == false)
            #expect(user.age == 30)
            #expect(user.timeZone == "UTC")
        }
    }

    @Test(arguments: Backend.available)
    func aPhotosMetadataIsStrippedBeforeAnyoneSeesIt(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.onboardedUser()
            for (image, clean, type) in [
                (TestImages.jpeg(withExif: true), TestImages.jpeg(withExif: false), "image/jpeg"),
                (TestImages.png(withText: "GPS 48.8584 N 2.2945 E"), TestImages.png(withText: nil), "image/png"),
            ] {
                let upload = try await app.request(
                    .post,
                    "/api/user/profile/photo",
                    token: token,
                    body: Data(image),
                    headers: [.contentType: type]
                )
                #expect(upload.status == .ok, "\(upload.text)")
                let served = Array(
                    try await app.request(.get, "/api/user/profile/photo", token: token).body.readableBytesView
                )
                #expect(served == clean)
                #expect(!String(decoding: served, as: UTF8.self).contains("GPS"))
            }
            let truncated = Data(TestImages.jpeg(withExif: true).prefix(40))
            let refused = try await app.request(
                .post,
                "/api/user/profile/photo",
                token: token,
                body: truncated,
                headers: [.contentType: "image/jpeg"]
            )
            #expect(refused.status == .unprocessableContent)
        }
    }
}

/// Time zones as devices send them: every IANA zone and link the server resolves, kept as sent.
struct TimeZoneNameTests {
    @Test(arguments: Backend.available)
    func aZoneOrLinkOfTheIANADatabaseIsTakenAsSentAndOthersAreRefused(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            // Monday 2 March 2026, 20:00 UTC = 01:30 on the 3rd in Kolkata
            app.clock.set(Date(timeIntervalSince1970: 1_772_481_600))
            let token = try await app.onboardedUser()
            for zone in ["Asia/Kolkata", "America/Indianapolis", "Etc/GMT-5"] {
                let saved = try await app.request(
                    .put,
                    "/api/user/profile",
                    token: token,
                    json: TestApp.validProfile(timeZone: zone)
                )
                #expect(saved.status == .ok, "\(zone): \(saved.text)")
                #expect(try saved.decoded(as: Components.Schemas.Profile.self).timeZone == zone)
            }
            // A day is the zone's: India is 5 h 30 ahead of UTC, so 20:00 UTC is tomorrow there.
            _ = try await app.request(
                .put,
                "/api/user/profile",
                token: token,
                json: TestApp.validProfile(timeZone: "Asia/Kolkata")
            )
            let sync: [String: Any] = [
                "clientEventId": "k1", "type": "steps", "source": "healthkit",
                "occurredAt": iso8601(app.clock.now), "steps": 1_000,
            ]
            let recorded = try await app.request(.post, "/api/activities", token: token, json: sync)
            #expect(try recorded.decoded(as: Components.Schemas.Activity.self).localDate == "2026-03-03")
            for zone in ["PST", "GMT+5", "asia/kolkata"] {
                let refused = try await app.request(
                    .put,
                    "/api/user/profile",
                    token: token,
                    json: TestApp.validProfile(timeZone: zone)
                )
                #expect(
                    refused.status == .unprocessableContent && refused.text.contains("timeZone"),
                    "\(zone): \(refused.text)"
                )
            }
        }
    }
}
