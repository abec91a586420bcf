import HTTPTypes
public import Hummingbird
import OpenAPIHummingbird
import OpenAPIRuntime

/// The server's responder: the hot reads' routes (`HotReads`) are found before Hummingbird's trie, which
/// walks its sibling nodes one string comparison at a time — for `/api/fitcircles/{id}/leaderboard` some
/// forty of them, about 6 µs of a `304`'s 150 on the machine measured (issue 42, `Benchmarks/README.md`). A
/// hot route's request goes
/// to the very responder the router would have found (its middleware chain and the generated handler,
/// captured as they were registered, `KeptRoutes`); every other request goes to the router.
public struct HotRouting<Context: RequestContext>: HTTPResponderBuilder {
    struct Route: Sendable {
        /// The template's components; nil where it names a parameter.
        var components: [Substring?]
        var parameters: [Substring]
        /// As the router would name the route (`RouterPath.description`, what `context.endpointPath` holds).
        var endpointPath: String
        var responder: any HTTPResponder<Context>
    }

    let router: Router<Context>
    let routes: [Route]
    /// Other origins' web apps allowed to call: answered here, around every route (a preflight has none).
    let crossOrigin: CrossOriginPolicy

    public func buildResponder() -> Responder {
        Responder(router: self.router.buildResponder(), routes: self.routes, crossOrigin: self.crossOrigin)
    }

    public struct Responder: HTTPResponder {
        let router: RouterResponder<Context>
        let routes: [Route]
        let crossOrigin: CrossOriginPolicy

        public func respond(to request: Request, context: Context) async throws -> Response {
            guard let origin = self.crossOrigin.allowed(request) else {
                var response = try await self.route(request, context: context)
                // The answer would differ for a listed origin: a shared cache must not hand this one to it.
                if self.crossOrigin.isOn { response.headers.append(HTTPField(name: .vary, value: "Origin")) }
                return response
            }
            if CrossOriginPolicy.isPreflight(request) { return CrossOriginPolicy.preflight(for: origin) }
            var response: Response
            do {
                response = try await self.route(request, context: context)
            } catch let error as any HTTPResponseError {
                response = try error.response(from: request, context: context)
            }
            CrossOriginPolicy.allow(origin, in: &response)
            return response
        }

        func route(_ request: Request, context: Context) async throws -> Response {
            guard request.method == .get, let (route, parameters) = self.match(request.uri.path) else {
                return try await self.router.respond(to: request, context: context)
            }
            var context = context
            context.coreContext.parameters = parameters
            context.coreContext.endpointPath.value = route.endpointPath
            do {
                return try await route.responder.respond(to: request, context: context)
            } catch let error as any HTTPResponseError {
                return try error.response(from: request, context: context)  // as the router does
            }
        }

        /// The hot route of a path and its parameters, its components compared byte by byte as they are walked
        /// (nothing is allocated for a path that is not hot); empty components are skipped, as the router skips
        /// them.
        func match(_ path: String) -> (Route, Parameters)? {
            let bytes = path.utf8
            let slash = UInt8(ascii: "/")
            routes: for route in self.routes {
                var parameters = Parameters()
                var names = route.parameters.makeIterator()
                var index = bytes.startIndex
                for expected in route.components {
                    while index < bytes.endIndex, bytes[index] == slash { index = bytes.index(after: index) }
                    let start = index
                    while index < bytes.endIndex, bytes[index] != slash { index = bytes.index(after: index) }
                    guard start < index else { continue routes }
                    if let expected {
                        guard bytes[start..<index].elementsEqual(expected.utf8) else { continue routes }
                    } else if let name = names.next() {
                        parameters[name] = path[start..<index]
                    }
                }
                while index < bytes.endIndex, bytes[index] == slash { index = bytes.index(after: index) }
                if index == bytes.endIndex { return (route, parameters) }
            }
            return nil
        }
    }
}

/// Registers the generated handlers on the router and keeps aside, for `HotRouting`, the responder of each
/// hot read's route: the router's middleware as it stood at registration around the generated handler,
/// which is what the router itself would call.
final class KeptRoutes<Context: RequestContext>: RouterMethods, ServerTransport {
    let router: Router<Context>
    /// The hot reads' paths as the document writes them (`/api/fitcircles/{id}/leaderboard`).
    private let paths: Set<String>
    private(set) var kept: [HotRouting<Context>.Route] = []

    init(router: Router<Context>, paths: Set<String>) {
        self.router = router
        self.paths = Set(paths.map { RouterPath($0).description })
    }

    @discardableResult func on<Responder: HTTPResponder>(
        _ path: RouterPath,
        method: HTTPRequest.Method,
        responder: Responder
    ) -> Self where Responder.Context == Context {
        self.router.on(path, method: method, responder: responder)
        if method == .get, self.paths.contains(path.description) {
            // `{id}` is a parameter named `id`.
            let template = Substring(path.description).split(separator: "/")
            let parameter = { (component: Substring) in component.first == "{" && component.last == "}" }
            self.kept.append(
                .init(
                    components: template.map { parameter($0) ? nil : $0 },
                    parameters: template.filter(parameter).map { $0.dropFirst().dropLast() },
                    endpointPath: path.description,
                    responder: self.router.middlewares.constructResponder(finalResponder: responder)
                )
            )
        }
        return self
    }

    @discardableResult func add(middleware: any MiddlewareProtocol<Request, Response, Context>) -> Self {
        self.router.add(middleware: middleware)
        return self
    }
}
