import FitCircleAPI
import FitCircleEngine

/// Implements the generated `APIProtocol`: map in, call the engine, map out. No rules here.
/// One extension per tag: `API+Auth.swift`, `API+Profile.swift`, `API+Config.swift`.
///
/// A class: the generated server copies its handler for every request, and copying the engine's many
/// fields (a retain each) cost about a tenth of a small request's time.
final class API: APIProtocol, Sendable {
    let engine: Engine
    let streams: OpenStreams

    init(engine: Engine, streams: OpenStreams) {
        self.engine = engine
        self.streams = streams
    }
}
