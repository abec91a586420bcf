import FitCircleAPI
import FitCircleEngine

/// Implements the generated `APIProtocol`: map in, call the engine, map out. No rules here.
/// One extension per tag: `API+Auth.swift`, `API+Profile.swift`, `API+Config.swift`.
struct API: APIProtocol {
    let engine: Engine
}
