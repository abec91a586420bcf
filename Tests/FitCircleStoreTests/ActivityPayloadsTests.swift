import FitCircleCore
import Foundation
import Testing

@testable import FitCircleStore

/// The decoded payloads kept by their JSON text: the same text gives the same payload, another text (an
/// edit) another one, and no more than the capacity is kept.
struct ActivityPayloadsTests {
    static func text(_ steps: Int) throws -> String {
        String(decoding: try JSONEncoder().encode(ActivityPayload.steps(StepTotals(steps: steps))), as: UTF8.self)
    }

    @Test func aTextDecodesToItsOwnPayloadWhetherKeptOrNot() throws {
        let payloads = ActivityPayloads(capacity: 4, largestText: 2_048)
        for steps in [1_000, 2_000, 1_000, 3_000, 4_000, 5_000, 1_000] {
            #expect(try payloads.payload(Self.text(steps), decoder: JSONDecoder()) == .steps(StepTotals(steps: steps)))
        }
        #expect(payloads.count <= 4)
        // A text too large to keep is decoded all the same.
        let small = ActivityPayloads(capacity: 4, largestText: 8)
        #expect(
            try small.payload(Self.text(7_000), decoder: JSONDecoder()) == .steps(StepTotals(steps: 7_000))
                && small.count == 0
        )
        #expect(throws: (any Error).self) { try payloads.payload("{\"kind\": \"nonsense\"}", decoder: JSONDecoder()) }
    }
}
