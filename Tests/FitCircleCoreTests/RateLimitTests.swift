import FitCircleCore
import Foundation
import Testing

struct RateLimitTests {
    let limit = RateLimit(name: "ip", quota: 10, window: 60)
    let t0 = Date(timeIntervalSince1970: 1_772_452_800)

    @Test func theWholeQuotaIsThereAtOnceThenOneRequestPerInterval() {
        var arrival: Date?
        for index in 0..<10 {
            let decision = self.limit.decide(at: self.t0, arrival: arrival)
            #expect(decision.allowed && decision.remaining == 9 - index)
            arrival = decision.arrival
        }
        let refused = self.limit.decide(at: self.t0, arrival: arrival)
        #expect(!refused.allowed && refused.resetSeconds == 6 && refused.arrival == arrival)
        #expect(!self.limit.decide(at: self.t0.addingTimeInterval(5.9), arrival: arrival).allowed)
        let later = self.limit.decide(at: self.t0.addingTimeInterval(6), arrival: arrival)
        #expect(later.allowed && later.remaining == 0)
    }

    @Test func aQuietWindowRestoresTheQuotaButNoMore() {
        var arrival: Date?
        for _ in 0..<10 { arrival = self.limit.decide(at: self.t0, arrival: arrival).arrival }
        let rested = self.limit.decide(at: self.t0.addingTimeInterval(3_600), arrival: arrival)
        #expect(rested.allowed && rested.remaining == 9)
    }

    @Test func theHeadersFollowTheDraft() {
        let decision = self.limit.decide(at: self.t0, arrival: nil)
        #expect(self.limit.policyHeader == #""ip";q=10;w=60"#)
        #expect(self.limit.header(decision) == #""ip";r=9;t=6"#)
    }
}
