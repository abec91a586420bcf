public import FitCircleClient
import Foundation

extension ServerSentEvent {
    /// The events of a whole stream's text, in order: for a test that reads a stream which has ended.
    public static func all(in text: String) -> [ServerSentEvent] {
        text.components(separatedBy: "\n\n").filter { !$0.isEmpty }.map { block in
            var fields: [String: String] = [:]
            for line in block.split(separator: "\n") {
                let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                if parts.count == 2 { fields[parts[0]] = parts[1] }
            }
            return ServerSentEvent(event: fields["event"] ?? "", id: fields["id"], data: fields["data"] ?? "{}")
        }
    }

    /// The data as one of the API's schemas.
    public func decoded<Value: Decodable>(as type: Value.Type = Value.self) throws -> Value {
        do {
            return try apiDecoder().decode(Value.self, from: Data(self.data.utf8))
        } catch {
            throw TestSetupError("expected \(Value.self) in the \(self.event) event (\(error)): \(self.data)")
        }
    }
}
