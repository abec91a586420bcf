import FitCircleCore
import FitCircleEngine
import FitCircleTesting
import HTTPTypes
import HummingbirdTesting
import OpenAPIRuntime
import Testing

@testable import FitCircleServer

struct OnboardingGateTests {
    /// Drives the middleware directly with an operation that is not part of onboarding.
    func call(_ operationID: String, token: String, app: TestApp, required: Bool) async throws -> Bool {
        let middleware = AuthenticationMiddleware(
            accounts: app.engine.accounts,
            serviceKeys: app.engine.serviceKeys,
            publicOperations: [],
            onboardingRequired: required,
            secureCookies: false
        )
        var request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/")
        request.headerFields[.authorization] = "Bearer \(token)"
        _ = try await middleware.intercept(request, body: nil, metadata: .init(), operationID: operationID) { _, _, _ in
            (HTTPResponse(status: .ok), nil)
        }
        return true
    }

    @Test(arguments: Backend.available)
    func aUserWhoHasNotOnboardedReachesOnlyTheProfile(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.devSignIn().accessToken
            for operation in OnboardingAccess.allowedBefore {
                #expect(try await self.call(operation, token: token, app: app, required: true))
            }
            await #expect(throws: DomainError.onboardingRequired) {
                try await self.call("listActivities", token: token, app: app, required: true)
            }
            #expect(try await self.call("listActivities", token: token, app: app, required: false))
        }
    }

    @Test(arguments: Backend.available)
    func onboardingOpensEverything(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.onboardedUser()
            #expect(try await self.call("listActivities", token: token, app: app, required: true))
        }
    }

    @Test func theGateAnswersAProblem403() {
        #expect(ProblemDocument.from(DomainError.onboardingRequired)?.status == 403)
        #expect(ProblemDocument.from(DomainError.onboardingRequired)?.type == "/problems/onboarding-required")
    }
}

struct OnboardingGateHTTPTests {
    @Test(arguments: Backend.available)
    func theLedgerIsClosedUntilTheProfileIsComplete(_ backend: Backend) async throws {
        try await withTestApp(backend) { app async throws in
            let token = try await app.devSignIn().accessToken
            let blocked = try await app.request(.get, "/api/activities", token: token)
            #expect(blocked.status == .forbidden)
            #expect(try blocked.problemType() == "/problems/onboarding-required")
            #expect(try await app.request(.get, "/api/user/profile", token: token).status == .ok)
            #expect(
                try await app.request(.put, "/api/user/profile", token: token, json: TestApp.validProfile()).status
                    == .ok
            )
            #expect(try await app.request(.get, "/api/activities", token: token).status == .ok)
        }
    }

    @Test(arguments: Backend.available)
    func aProfileThatAllowsSkippingNeverBlocks(_ backend: Backend) async throws {
        try await withTestApp(backend, profile: "pushups") { app async throws in
            let token = try await app.devSignIn().accessToken
            #expect(try await app.request(.get, "/api/activities", token: token).status == .ok)
        }
    }
}
