import Configuration
public import FitCircleCore
public import FitCircleEngine
import FitCircleServer
public import FitCircleStore
import Foundation

/// What the tests run jobs and let time pass on: a store, the engine over it and the test's clock. A `TestApp`
/// (through HTTP) and a `TestEngine` (the use cases alone) are both one.
public protocol EngineHarness: Sendable {
    var store: Store { get }
    var engine: Engine { get }
    var clock: TestClock { get }
}

extension TestApp: EngineHarness {}

/// The engine as `serve` composes it (`FitCircleNode`), on a fresh database and the test's clock, without HTTP:
/// for the use cases that need none.
public struct TestEngine: EngineHarness {
    public let store: Store
    public let engine: Engine
    public let clock: TestClock
}

/// Runs `body` with a `TestEngine` on a fresh database of `backend`, under rule profile `profile`, dev sign-in
/// on (`engine.accounts.devSignIn` makes accounts).
public func withTestEngine<Result: Sendable>(
    _ backend: Backend,
    profile: String = "fitcircle",
    clock: TestClock = TestClock(),
    _ body: @Sendable (TestEngine) async throws -> Result
) async throws -> Result {
    let blobs = FileManager.default.temporaryDirectory.appendingPathComponent(
        "fitcircle-tests/blobs-\(UUID().uuidString)"
    )
    defer { try? FileManager.default.removeItem(at: blobs) }
    let configuration = try FitCircleConfiguration(
        [
            "profile": .string(profile), "profiles.directory": .string(profilesDirectory.path),
            "blobs.directory": .string(blobs.path), "devLogin": .bool(true),
        ],
        workingDirectory: FileManager.default.temporaryDirectory
    )
    return try await withStore(backend, now: clock.now) { store in
        let node = try await FitCircleNode(
            configuration: configuration,
            store: store,
            clock: clock.wallClock,
            overrides: NodeOverrides(transports: Transports())
        )
        return try await body(TestEngine(store: store, engine: node.engine, clock: clock))
    }
}

extension TestEngine {
    /// Signs `email` up (or in) by dev sign-in; their id.
    public func account(_ email: String, timeZone: String? = nil) async throws -> User.ID {
        try await self.engine.accounts.devSignIn(email: email, name: nil, timeZone: timeZone).user.id
    }
}
