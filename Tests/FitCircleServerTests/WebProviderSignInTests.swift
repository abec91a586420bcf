import FitCircleCore
import FitCircleServer
import FitCircleTesting
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

/// Google's and Apple's sign-in on the web (`WebSignInFlow`): to the provider with a state and a nonce in
/// a cookie of the flow's own; back with an ID token that must answer that state and carry that nonce.
struct WebProviderSignInTests {
    static let web = WebSettings(
        publicURL: "https://fit.example.com",
        googleClientID: TestApp.clientID,
        appleClientID: TestApp.clientID
    )

    /// Starts the flow: the provider's URL, and the flow's cookie value.
    static func start(_ app: TestApp, _ provider: String, zone: String = "Asia/Tokyo") async throws -> (
        url: URLComponents, cookie: String
    ) {
        let response = try await app.request(.get, "/web/auth/\(provider)?timeZone=\(zone)")
        #expect(response.status == .seeOther, "\(response.text)")
        let location = try #require(response.headers[.location].flatMap(URLComponents.init(string:)))
        let setCookie = try #require(response.headers[values: .setCookie].first { $0.hasPrefix("fc_oauth=") })
        #expect(
            setCookie.contains("HttpOnly") && setCookie.contains("Secure") && setCookie.contains("SameSite=None")
                && setCookie.contains("Path=/web/auth")
        )
        return (location, String(setCookie.split(separator: ";")[0].dropFirst("fc_oauth=".count)))
    }

    static func callback(_ app: TestApp, _ provider: String, cookie: String?, fields: [String: String]) async throws
        -> TestResponse
    {
        var components = URLComponents()
        components.queryItems = fields.map { URLQueryItem(name: $0.key, value: $0.value) }
        var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
        if let cookie { headers[.cookie] = "fc_oauth=\(cookie)" }
        return try await app.request(
            .post,
            "/web/auth/\(provider)/callback",
            body: Data((components.percentEncodedQuery ?? "").utf8),
            headers: headers
        )
    }

    @Test(arguments: Backend.available, ["google", "apple"])
    func theProviderAnswersThisBrowsersRequestAndTheSessionBegins(_ backend: Backend, provider: String) async throws {
        try await withTestApp(backend, web: Self.web) { app async throws in
            let methods = try await app.request(.get, "/web/session").jsonObject()["signIn"] as? [String: Bool]
            #expect(methods?["google"] == true && methods?["apple"] == true)
            let (url, cookie) = try await Self.start(app, provider)
            let query = Dictionary(uniqueKeysWithValues: (url.queryItems ?? []).map { ($0.name, $0.value ?? "") })
            #expect(url.host == (provider == "google" ? "accounts.google.com" : "appleid.apple.com"))
            #expect(query["client_id"] == TestApp.clientID && query["response_mode"] == "form_post")
            #expect(query["redirect_uri"] == "https://fit.example.com/web/auth/\(provider)/callback")
            let state = try #require(query["state"])
            let nonce = try #require(query["nonce"])

            let identity = provider == "google" ? app.google : app.apple
            var claims = identity.claims(
                subject: "web-\(provider)",
                audience: TestApp.clientID,
                now: app.clock.now,
                email: "web-\(provider)@example.com",
                name: nil
            )
            claims.nonce = nonce
            var fields = ["state": state, "id_token": try await identity.idToken(claims)]
            if provider == "apple" { fields["user"] = #"{"name":{"firstName":"Mei","lastName":"Tanaka"}}"# }
            let answer = try await Self.callback(app, provider, cookie: cookie, fields: fields)
            #expect(answer.status == .seeOther && answer.headers[.location] == "/app/onboarding", "\(answer.headers)")
            let cookies = answer.headers[values: .setCookie]
            let access = try #require(cookies.first { $0.hasPrefix("fc_access=") })
            #expect(access.contains("HttpOnly") && access.contains("Secure") && access.contains("SameSite=Strict"))
            #expect(cookies.contains { $0.hasPrefix("fc_oauth=;") && $0.contains("Max-Age=0") })

            // Signed in: the profile is the new account's, in the browser's zone, named by Apple's `user`.
            let token = String(access.split(separator: ";")[0].dropFirst("fc_access=".count))
            let profile = try await app.request(.get, "/api/user/profile", token: token).jsonObject()
            #expect(profile["email"] as? String == "web-\(provider)@example.com")
            #expect(profile["timeZone"] as? String == "Asia/Tokyo")
            if provider == "apple" { #expect(profile["displayName"] as? String == "Mei Tanaka") }
        }
    }

    @Test(arguments: Backend.available)
    func anAnswerToAnotherRequestOrWithoutTheNonceStartsNoSession(_ backend: Backend) async throws {
        try await withTestApp(backend, web: Self.web) { app async throws in
            let (url, cookie) = try await Self.start(app, "google")
            let query = Dictionary(uniqueKeysWithValues: (url.queryItems ?? []).map { ($0.name, $0.value ?? "") })
            let state = try #require(query["state"])
            var claims = app.google.claims(subject: "web-x", audience: TestApp.clientID, now: app.clock.now)
            let withoutNonce = try await app.google.idToken(claims)
            claims.nonce = query["nonce"]
            let good = try await app.google.idToken(claims)

            for (cookie, fields, reason) in [
                (nil, ["state": state, "id_token": good], "expired"),  // no flow cookie: another browser
                // another request's state
                (cookie, ["state": String(repeating: "0", count: 64), "id_token": good], "expired"),
                (cookie, ["state": state, "id_token": withoutNonce], "refused"),  // a token not issued for this request
                (cookie, ["state": state, "error": "access_denied"], "cancelled"),
            ] as [(String?, [String: String], String)] {
                let answer = try await Self.callback(app, "google", cookie: cookie, fields: fields)
                #expect(
                    answer.status == .seeOther && answer.headers[.location] == "/?error=\(reason)",
                    "\(fields.keys.sorted()) → \(answer.headers)"
                )
                #expect(!answer.headers[values: .setCookie].contains { $0.hasPrefix("fc_access=") })
            }
            // A cookie of Apple's flow does not finish Google's.
            let apple = try await Self.start(app, "apple")
            let crossed = try await Self.callback(
                app,
                "google",
                cookie: apple.cookie,
                fields: ["state": state, "id_token": good]
            )
            #expect(crossed.headers[.location] == "/?error=expired")
        }
    }

    /// Issue 41: the callback, captured with its cookie, signed in again; the web flow's token worked at
    /// the app endpoint. The nonce is spent by its sign-in, and the web client's tokens are not an app's.
    @Test(arguments: Backend.available)
    func aCallbackWorksOnceAndAWebTokenIsNotAnAppsToken(_ backend: Backend) async throws {
        let web = WebSettings(publicURL: "https://fit.example.com", googleClientID: "web-client")
        try await withTestApp(backend, web: web) { app async throws in
            let (url, cookie) = try await Self.start(app, "google")
            let query = Dictionary(uniqueKeysWithValues: (url.queryItems ?? []).map { ($0.name, $0.value ?? "") })
            #expect(query["client_id"] == "web-client")
            var claims = app.google.claims(subject: "web-once", audience: "web-client", now: app.clock.now)
            claims.nonce = query["nonce"]
            let token = try await app.google.idToken(claims)
            let fields = ["state": try #require(query["state"]), "id_token": token]

            // Brought to the app endpoint first: not for an app's client.
            #expect(try await app.request(.post, "/api/auth/google", json: ["idToken": token]).status == .unauthorized)
            let first = try await Self.callback(app, "google", cookie: cookie, fields: fields)
            #expect(first.headers[values: .setCookie].contains { $0.hasPrefix("fc_access=") }, "\(first.headers)")
            let replay = try await Self.callback(app, "google", cookie: cookie, fields: fields)
            #expect(replay.headers[.location] == "/?error=refused", "\(replay.headers)")
            #expect(!replay.headers[values: .setCookie].contains { $0.hasPrefix("fc_access=") })

            // An app's token (the app's client, no nonce) still signs in there, as often as it is sent.
            let appToken = try await app.google.idToken(app.google.claims(subject: "web-once", now: app.clock.now))
            for _ in 0..<2 {
                #expect(try await app.request(.post, "/api/auth/google", json: ["idToken": appToken]).status == .ok)
            }

            // The spent nonce is forgotten once its token has expired.
            app.clock.advance(by: 2 * 3_600)
            #expect(try await app.engine.housekeeping.run().signInNonces == 1)
        }
    }

    @Test(arguments: Backend.available)
    func withoutAWebClientOrOverPlainHttpTheFlowIsNotOffered(_ backend: Backend) async throws {
        try await withTestApp(
            backend,
            web: WebSettings(publicURL: "http://127.0.0.1:8080", googleClientID: TestApp.clientID)
        ) { app async throws in
            #expect(try await app.request(.get, "/web/auth/google").status == .notFound)
            #expect(try await app.request(.get, "/web/auth/apple").status == .notFound)
            #expect(try await app.request(.get, "/web/auth/github").status == .notFound)
            let methods = try await app.request(.get, "/web/session").jsonObject()["signIn"] as? [String: Bool]
            #expect(methods?["google"] == false && methods?["dev"] == true)
        }
    }
}
