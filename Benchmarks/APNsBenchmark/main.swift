// Notifications per second from `APNsTransport` to the fake APNs (HTTP/2 over TLS on loopback): many
// concurrent streams on one connection, next to the same client sending one stream at a time, in the same
// run. Run with `scripts/bench-apns.sh [notifications] [streams] [latency ms]`.
import FitCircleCore
import FitCircleDelivery
import FitCircleTesting
import Foundation
import NIOCore

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let (count, streams, latency) = (
    arguments.count > 0 ? arguments[0] : 2_000, arguments.count > 1 ? arguments[1] : 100,
    arguments.count > 2 ? arguments[2] : 0
)
let message = PushMessage(
    title: "Daily Check-in Reminder",
    body: "Complete your check-in to keep your 14-day streak!",
    type: "daily_checkin",
    deepLink: "fitcircle://checkin",
    badge: 1
)
let deviceToken = String(repeating: "a1", count: 32)

/// Sends `total` notifications with at most `width` in flight; answers the rate and how many were delivered.
func measure(_ transport: APNsTransport, total: Int, width: Int) async -> (perSecond: Double, delivered: Int) {
    let started = ContinuousClock.now
    let delivered = await withTaskGroup(of: Bool.self) { group in
        var (sent, delivered) = (0, 0)
        while sent < min(width, total) {
            group.addTask { await transport.send(message, to: deviceToken, in: .production).outcome.isDelivered }
            sent += 1
        }
        for await ok in group {
            if ok { delivered += 1 }
            if sent < total {
                group.addTask { await transport.send(message, to: deviceToken, in: .production).outcome.isDelivered }
                sent += 1
            }
        }
        return delivered
    }
    let seconds =
        Double((ContinuousClock.now - started).components.attoseconds) / 1e18
        + Double((ContinuousClock.now - started).components.seconds)
    return (Double(total) / seconds, delivered)
}

try await FakeAPNs.run(now: { Date() }, latency: latency > 0 ? .milliseconds(Int64(latency)) : nil) { apns in
    let transport = try await APNsTransport(
        credentials: apns.credentials,
        productionURL: apns.productionURL,
        sandboxURL: apns.sandboxURL,
        http: apns.client,
        clock: .system
    )
    _ = await measure(transport, total: 200, width: streams)  // warm up: the connection, TLS, the token
    // One stream at a time is slow by design; a quarter of the notifications tells its rate as well.
    let single = await measure(transport, total: max(count / 4, 100), width: 1)
    let concurrent = await measure(transport, total: count, width: streams)
    let rate = { (value: Double) in String(format: "%.0f", value) }
    print("provider latency \(latency) ms; TLS connections opened: \(apns.connections)")
    print("one stream at a time:     \(rate(single.perSecond)) notifications/s (\(single.delivered) delivered)")
    print(
        "\(streams) concurrent streams: \(rate(concurrent.perSecond)) notifications/s (\(concurrent.delivered) delivered)"
    )
    print(String(format: "ratio: %.1f× (target ≥ 10×)", concurrent.perSecond / single.perSecond))
}
