public import FitCircleClient
public import Foundation
import HTTPTypes
public import HummingbirdTesting
import NIOCore

extension TestResponse {
    /// The body as one of the API's schemas (`Components.Schemas.…`): for the tests that must send a raw
    /// request (a malformed body, a header the client would not send) and still assert typed values.
    public func decoded<Value: Decodable>(as type: Value.Type = Value.self) throws -> Value {
        do {
            return try Data(self.body.readableBytesView).decoded()
        } catch {
            throw TestSetupError("expected \(Value.self) (\(error)), got \(self.status): \(self.text)")
        }
    }

    /// The problem this response carries, after checking it is `application/problem+json`.
    public func problem() throws -> Components.Schemas.Problem {
        guard self.headers[.contentType] == "application/problem+json" else {
            throw TestSetupError("expected a problem, got \(self.status): \(self.text)")
        }
        return try self.decoded()
    }
}

extension Components.Schemas.Problem {
    /// The fields its violations name, in order.
    public var fields: [String] { (self.errors ?? []).map(\.field) }
}

extension TestApp {
    /// The API as `email` calls it, with a token fresh from dev login: for tests that move the clock past a
    /// token's 15 minutes.
    public func api(as email: String) async throws -> Client {
        self.api(try await self.devSignIn(email).accessToken)
    }

    /// The API as `person` calls it, signed in afresh.
    public func api(as person: TestPerson) async throws -> Client { try await self.api(as: person.email) }
}

extension Data {
    /// This JSON as one of the API's schemas: for bodies that arrive outside a `TestResponse` (a node in
    /// another process, a webhook's delivery).
    public func decoded<Value: Decodable>(as type: Value.Type = Value.self) throws -> Value {
        try apiDecoder().decode(Value.self, from: self)
    }
}

/// A decoder for the API's JSON: instants are ISO 8601, with or without fractions of a second.
func apiDecoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .custom { decoder in
        let text = try decoder.singleValueContainer().decode(String.self)
        if let date = try? Date(text, strategy: .iso8601) { return date }
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) {
            return date
        }
        throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: text))
    }
    return decoder
}
