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
            let token = try #require(try await app.devSignIn()["accessToken"] as? String)
            let form: [String: Any] = [
                "displayName": "  Ana Lima ", "age": 34, "weight": ["value": 150, "unit": "lb"],
                "height": ["unit": "ft_in", "feet": 5, "inches": 7], "gender": "female", "timeZone": "America/New_York",
                "visibility": ["age": "only_me", "weight": "friends", "height": "friends"],
            ]
            let saved = try await app.request(.put, "/api/user/profile", token: token, json: form)
            #expect(saved.status == .ok)
            let profile = try await app.request(.get, "/api/user/profile", token: token).jsonObject()
            #expect(profile["displayName"] as? String == "Ana Lima")
            #expect(profile["age"] as? Int == 34)
            #expect(profile["weight"] as? NSDictionary == ["value": 150, "unit": "lb"] as NSDictionary)
            #expect(profile["height"] as? NSDictionary == ["unit": "ft_in", "feet": 5, "inches": 7, "centimeters": 170.2] as NSDictionary)
            #expect(profile["gender"] as? String == "female")
            #expect(profile["timeZone"] as? String == "America/New_York")
            #expect(profile["visibility"] as? [String: String] == ["age": "only_me", "weight": "friends", "height": "friends"])
            #expect(profile["onboardingCompleted"] as? Bool == true)
            #expect(profile["onboardingRequired"] as? Bool == false)
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
            let errors = try response.jsonObject()["errors"] as? [[String: String]]
            #expect(errors?.map { $0["field"] } == ["age"])
            #expect(try await app.request(.get, "/api/user/profile", token: token).text == before)
        }
    }

    /// (field, its value as JSON, the field the problem must name)
    @Test(arguments: Backend.available, [
        ("age", #""x""#, "age"),
        ("age", "34.5", "body"),
        ("weight", #"{"value": 70}"#, "weight.unit"),
        ("weight", #"{"value": 70, "unit": "stone"}"#, "weight.unit"),
        ("timeZone", #""EST""#, "timeZone"),
        ("height", #"{"unit": "cm"}"#, "height.centimeters"),
        ("gender", #""robot""#, "gender"),
        ("displayName", "null", "displayName"),
    ])
    func eachInvalidFieldIsNamed(_ backend: Backend, field: (String, String, String)) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try #require(try await app.devSignIn()["accessToken"] as? String)
            var form = TestApp.validProfile()
            form[field.0] = try JSONSerialization.jsonObject(with: Data(field.1.utf8), options: .fragmentsAllowed)
            let response = try await app.request(.put, "/api/user/profile", token: token, json: form)
            #expect(response.status == .unprocessableContent, "\(response.text)")
            let errors = try response.jsonObject()["errors"] as? [[String: String]]
            #expect(errors?.map { $0["field"] } == [field.2])
            let profile = try await app.request(.get, "/api/user/profile", token: token).jsonObject()
            #expect(profile["onboardingCompleted"] as? Bool == false)
        }
    }

    @Test(arguments: Backend.available, ["displayName", "age", "weight", "timeZone"])
    func eachRequiredFieldIsRequired(_ backend: Backend, missing: String) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try #require(try await app.devSignIn()["accessToken"] as? String)
            var form = TestApp.validProfile()
            form[missing] = nil
            let response = try await app.request(.put, "/api/user/profile", token: token, json: form)
            #expect(response.status == .unprocessableContent)
            #expect((try response.jsonObject()["errors"] as? [[String: String]])?.first?["field"] == missing)
        }
    }

    @Test(arguments: Backend.available)
    func aPhotoIsRecognisedByItsBytesStoredAndServed(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.onboardedUser()
            let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data(repeating: 7, count: 100)
            let upload = try await app.request(
                .post, "/api/user/profile/photo", token: token, body: png, headers: [.contentType: "application/octet-stream"])
            #expect(upload.status == .ok)
            #expect(try upload.jsonObject()["photoUrl"] as? String == "/api/user/profile/photo")
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
                .post, "/api/user/profile/photo", token: token, body: Data("<svg onload=alert(1)>".utf8), headers: [.contentType: "image/png"])
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
                .post, "/api/user/profile/photo", token: token, body: jpeg, headers: [.contentType: "image/jpeg"])
            #expect(response.status == .contentTooLarge)
            #expect(try response.problemType() == "/problems/payload-too-large")
        }
    }

    @Test(arguments: Backend.available)
    func theConfigurationShowsTheActiveProfile(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "pushups") { app async throws in
            let token = try #require(try await app.devSignIn()["accessToken"] as? String)
            let config = try await app.request(.get, "/api/config", token: token).jsonObject()
            #expect(config["profile"] as? String == "pushups")
            #expect(config["weekStartsOn"] as? String == "sunday")
            #expect(config["onboardingRequired"] as? Bool == false)
            #expect(config["signIn"] as? [String: Bool] == ["google": true, "apple": true, "dev": true])
        }
    }

    @Test(arguments: Backend.available)
    func underAProfileThatAllowsSkippingANewUserStartsFromDefaults(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "pushups") { app async throws in
            let user = try #require(try await app.devSignIn()["user"] as? [String: Any])
            #expect(user["onboardingCompleted"] as? Bool == true)
            #expect(user["onboardingRequired"] as? Bool == false)
            #expect(user["age"] as? Int == 30)
            #expect(user["timeZone"] as? String == "UTC")
        }
    }
}
