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
    let blobs = TestBlobs()
    defer { blobs.remove() }
    let configuration = try FitCircleConfiguration(
        testSettings(profile: profile, devLogin: true, blobs: blobs),
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

/// A directory of its own for a test node's photos, removed after it.
struct TestBlobs {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "fitcircle-tests/blobs-\(UUID().uuidString)"
    )

    func remove() { try? FileManager.default.removeItem(at: self.directory) }
}

/// The configuration a test node starts from, as `serve` reads it but given in memory: the rule profile of
/// `profile`, the shipped profiles, photos in `blobs`, dev sign-in as said.
func testSettings(profile: String, devLogin: Bool, blobs: TestBlobs) -> [String: ConfigContent] {
    [
        "profile": .string(profile), "profiles.directory": .string(profilesDirectory.path),
        "blobs.directory": .string(blobs.directory.path), "devLogin": .bool(devLogin),
    ]
}
