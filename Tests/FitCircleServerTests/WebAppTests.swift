import FitCircleCore
import FitCircleEngine
import FitCircleServer
import FitCircleTesting
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

/// The web app's pages and session (issue 25): tokens only in HttpOnly cookies, a CSRF token on every
/// request that may change something, a Content-Security-Policy without inline scripts, the console to
/// operators only. The pages themselves are tried in a real browser (`Tests/Browser`).
struct WebAppTests {
    /// A browser: the cookies the server set, sent back on each request.
    final class Browser: @unchecked Sendable {
        let app: TestApp
        var cookies: [String: String] = [:]

        init(_ app: TestApp) { self.app = app }

        @discardableResult
        func send(_ method: HTTPRequest.Method, _ uri: String, json: Any? = nil, csrf: Bool = true) async throws
            -> TestResponse
        {
            var headers: HTTPFields = [:]
            if !self.cookies.isEmpty {
                headers[.cookie] = self.cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(
                    separator: "; "
                )
            }
            if csrf, let token = self.cookies["__Host-fc_csrf"] ?? self.cookies["fc_csrf"] {
                headers[HTTPField.Name("X-CSRF-Token")!] = token
            }
            let response = try await self.app.request(method, uri, json: json, headers: headers)
            for header in response.headers[values: .setCookie] {
                let pair = header.split(separator: ";")[0].split(separator: "=", maxSplits: 1)
                let name = String(pair[0])
                let value = pair.count > 1 ? String(pair[1]) : ""
                if value.isEmpty || header.contains("Max-Age=0") {
                    self.cookies[name] = nil
                } else {
                    self.cookies[name] = value
                }
            }
            return response
        }
    }

    @Test(arguments: Backend.available)
    func theSessionLivesInHttpOnlyCookiesAndEveryChangeNeedsTheCSRFToken(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let browser = Browser(app)
            let page = try await browser.send(.get, "/")
            #expect(page.status == .ok && page.text.contains("<script type=\"module\" src=\"/assets/js/signin.js\">"))
            let policy = try #require(page.headers[HTTPField.Name("Content-Security-Policy")!])
            #expect(policy.contains("script-src 'self'") && !policy.contains("unsafe-inline"), "\(policy)")
            #expect(
                page.headers[values: .setCookie].contains {
                    $0.hasPrefix("fc_csrf=") && $0.contains("SameSite=Strict") && !$0.contains("HttpOnly")
                }
            )
            #expect(browser.cookies["fc_csrf"] != nil)

            // Signing in without the CSRF token is refused, and sets no cookie.
            let forged = try await browser.send(
                .post,
                "/web/session",
                json: ["provider": "dev", "email": "ana@example.com"],
                csrf: false
            )
            #expect(forged.status == .forbidden && forged.headers[values: .setCookie].isEmpty)
            // A bad address is named.
            let bad = try await browser.send(
                .post,
                "/web/session",
                json: ["provider": "dev", "email": "not an address"]
            )
            #expect(bad.status == .unprocessableContent && bad.text.contains("\"field\":\"email\""), "\(bad.text)")
            let csrf = try #require(browser.cookies["fc_csrf"])
            let plain = try await app.request(
                .post,
                "/web/session",
                body: Data(#"{"provider":"dev","email":"ana@example.com"}"#.utf8),
                headers: [
                    .cookie: "fc_csrf=\(csrf)", HTTPField.Name("X-CSRF-Token")!: csrf, .contentType: "text/plain",
                ]
            )
            #expect(plain.status == .unsupportedMediaType && plain.headers[values: .setCookie].isEmpty)

            let signIn = try await browser.send(
                .post,
                "/web/session",
                json: ["provider": "dev", "email": "ana@example.com"]
            )
            #expect(signIn.status == .ok, "\(signIn.text)")
            let body = try signIn.jsonObject()
            #expect(
                body["onboarded"] as? Bool == false && body["accessToken"] == nil
                    && !signIn.text.contains(browser.cookies["fc_access"] ?? "?")
            )
            let setCookies = signIn.headers[values: .setCookie]
            #expect(
                setCookies.filter { $0.hasPrefix("fc_access=") || $0.hasPrefix("fc_refresh=") }.allSatisfy {
                    $0.contains("HttpOnly") && $0.contains("SameSite=Strict")
                }
            )
            #expect(setCookies.contains { $0.hasPrefix("fc_refresh=") && $0.contains("Path=/web/session") })

            // The API takes the cookie: reads without a token, changes only with one.
            #expect(try await browser.send(.get, "/api/user/profile", csrf: false).status == .ok)
            let profile = TestApp.validProfile()
            let unsigned = try await browser.send(.put, "/api/user/profile", json: profile, csrf: false)
            #expect(unsigned.status == .forbidden)
            #expect(
                try await browser.send(.get, "/api/user/profile").jsonObject()["onboardingCompleted"] as? Bool == false,
                "nothing changed"
            )
            let mismatched = try await app.request(
                .put,
                "/api/user/profile",
                json: profile,
                headers: [
                    .cookie: browser.cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; "),
                    HTTPField.Name("X-CSRF-Token")!: "0",
                ]
            )
            #expect(mismatched.status == .forbidden)
            #expect(try await browser.send(.put, "/api/user/profile", json: profile).status == .ok)

            // An expired access token is renewed by the refresh cookie.
            app.clock.advance(by: 16 * 60)
            #expect(try await browser.send(.get, "/api/user/profile").status == .unauthorized)
            #expect(try await browser.send(.post, "/web/session/refresh", csrf: false).status == .forbidden)
            let refreshed = try await browser.send(.post, "/web/session/refresh")
            #expect(refreshed.status == .ok, "\(refreshed.text)")
            #expect(try await browser.send(.get, "/api/user/profile").status == .ok)

            // Signing out ends the session on the server: the old cookie no longer works.
            let access = try #require(browser.cookies["fc_access"])
            #expect(try await browser.send(.post, "/web/session/sign-out").status == .noContent)
            #expect(browser.cookies["fc_access"] == nil && browser.cookies["fc_refresh"] == nil)
            #expect(try await app.request(.get, "/api/user/profile", token: access).status == .unauthorized)

            // Also once the browser has dropped the access cookie (its 15 minutes): the refresh cookie names
            // the session to end.
            try await browser.send(.post, "/web/session", json: ["provider": "dev", "email": "ana@example.com"])
            let unexpired = try #require(browser.cookies["fc_access"])
            browser.cookies["fc_access"] = nil
            #expect(try await browser.send(.post, "/web/session/sign-out").status == .noContent)
            #expect(
                try await app.request(.get, "/api/user/profile", token: unexpired).status == .unauthorized,
                "the session is over"
            )
        }
    }

    /// Issue 41: the CSRF cookie was a bare random value, bound to nothing, and without the `__Host-` prefix,
    /// so whoever could plant a cookie (a sibling subdomain, a plain-http answer) could plant a token and send
    /// it. The token is now its session's, and over https the cookie is `__Host-fc_csrf`.
    @Test(arguments: Backend.available)
    func theCSRFTokenIsTheSessionsAndOverHttpsAHostCookie(_ backend: Backend) async throws {
        try await withTestApp(backend, web: WebSettings(publicURL: "https://fit.example.com")) { app async throws in
            let ana = Browser(app)
            let page = try await ana.send(.get, "/")
            let set = try #require(
                page.headers[values: .setCookie].first { $0.hasPrefix("__Host-fc_csrf=") },
                "\(page.headers)"
            )
            #expect(set.contains("Secure") && set.contains("Path=/") && !set.contains("Domain"))
            let anonymous = try #require(ana.cookies["__Host-fc_csrf"])
            #expect(
                try await ana.send(.post, "/web/session", json: ["provider": "dev", "email": "ana@example.com"]).status
                    == .ok
            )
            let hers = try #require(ana.cookies["__Host-fc_csrf"])
            #expect(hers != anonymous, "signing in sets a token of the new session")
            #expect(try await ana.send(.put, "/api/user/profile", json: TestApp.validProfile()).status == .ok)

            // Tokens that are not her session's: one of no session, another person's, one made up.
            let bo = Browser(app)
            try await bo.send(.get, "/")
            try await bo.send(.post, "/web/session", json: ["provider": "dev", "email": "bo@example.com"])
            let madeUp = String(hers.dropLast()) + (hers.hasSuffix("0") ? "1" : "0")
            for planted in [anonymous, try #require(bo.cookies["__Host-fc_csrf"]), madeUp, "0123456789abcdef"] {
                ana.cookies["__Host-fc_csrf"] = planted
                let forged = try await ana.send(.put, "/api/user/profile", json: TestApp.validProfile())
                #expect(forged.status == .forbidden, "\(planted): \(forged.text)")
            }
            // A page gives her browser a good token again.
            try await ana.send(.get, "/app")
            #expect(try await ana.send(.put, "/api/user/profile", json: TestApp.validProfile()).status == .ok)
            // Signing out leaves a token of no session, with which she can sign in again.
            try await ana.send(.post, "/web/session/sign-out")
            #expect(
                try await ana.send(.post, "/web/session", json: ["provider": "dev", "email": "ana@example.com"]).status
                    == .ok
            )
        }
    }

    @Test(arguments: Backend.available)
    func theConsoleIsServedToOperatorsOnly(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let anonymous = try await app.request(.get, "/admin")
            #expect(anonymous.status == .seeOther && anonymous.headers[.location] == "/?next=/admin")

            let browser = Browser(app)
            try await browser.send(.get, "/")
            try await browser.send(.post, "/web/session", json: ["provider": "dev", "email": "olga@example.com"])
            try await browser.send(.put, "/api/user/profile", json: TestApp.validProfile())
            let member = try await browser.send(.get, "/admin/metrics")
            #expect(member.status == .forbidden && member.text.contains("Operators only"))
            #expect(try await browser.send(.get, "/api/admin/metrics").status == .forbidden)

            _ = try await Operators(store: app.store).set(true, email: "olga@example.com")
            let console = try await browser.send(.get, "/admin")
            #expect(console.status == .ok && console.text.contains("/assets/js/admin.js"))
            #expect(try await browser.send(.get, "/api/admin/metrics").status == .ok)
        }
    }

    @Test(arguments: Backend.available)
    func assetsAreServedWithTheirTypesAndNothingElseIs(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let script = try await app.request(.get, "/assets/js/api.js")
            #expect(script.status == .ok && script.headers[.contentType] == "text/javascript; charset=utf-8")
            #expect(script.headers[HTTPField.Name("X-Content-Type-Options")!] == "nosniff")
            #expect(
                try await app.request(.get, "/assets/css/app.css").headers[.contentType] == "text/css; charset=utf-8"
            )
            for path in [
                "/assets/../Package.swift", "/assets/%2e%2e/Package.swift", "/assets/app.html", "/assets/nothing.js",
                "/assets/",
            ] {
                #expect(try await app.request(.get, path).status == .notFound, "\(path)")
            }
            // Every route of the app is the same page, which picks its view.
            for path in ["/app", "/app/check-in", "/app/onboarding"] {
                let page = try await app.request(.get, path)
                #expect(page.status == .ok && page.text.contains("/assets/js/app.js"), "\(path)")
            }
        }
    }
}
