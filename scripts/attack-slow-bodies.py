#!/usr/bin/env python3
"""The slow-body attack of issue 41, against a running FitCircle node on loopback.

`connections` connections each send `POST /api/auth/refresh` with `Content-Length: 1000` and then one byte of
body every `trickle` seconds, re-opening when the server closes them, for `seconds`; meanwhile one honest
client asks `GET /openapi.yaml` (through the node's admission, like any request) ten times a second,
and `GET /readyz` once a second. Prints what the honest client got: answers by status and their latency,
and what readiness said.

The node must run with `limits.trustForwardedFor` on: each attacker connection then comes from an address
of its own (`--addresses many`, the documentation range 203.0.113.0/24 and beyond, written in
`X-Forwarded-For` only: every packet goes to loopback) or all from one (`--addresses one`), and the honest
client from another. Bounded: at most `connections` sockets, at most `seconds` seconds.

    python3 scripts/attack-slow-bodies.py --port 8080 --connections 530 --seconds 40
"""
import argparse
import asyncio
import statistics
import time


async def attacker(port: int, address: str, trickle: float, until: float, stats: dict) -> None:
    head = (
        "POST /api/auth/refresh HTTP/1.1\r\nHost: localhost\r\n"
        f"X-Forwarded-For: {address}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n"
    ).encode()
    while time.monotonic() < until:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            stats["connect_failed"] += 1
            await asyncio.sleep(0.5)
            continue
        stats["opened"] += 1
        try:
            writer.write(head + b"{")
            await writer.drain()
            while time.monotonic() < until:
                try:
                    line = await asyncio.wait_for(reader.read(64), timeout=trickle)
                except asyncio.TimeoutError:
                    writer.write(b" ")
                    await writer.drain()
                    continue
                if not line:
                    stats["closed_by_server"] += 1
                    break
                status = line[9:12].decode(errors="replace")
                stats["answered_" + status] = stats.get("answered_" + status, 0) + 1
                break
        except (ConnectionError, OSError):
            stats["closed_by_server"] += 1
        finally:
            writer.close()


async def honest(port: int, path: str, until: float, answers: dict, latencies: list) -> None:
    request = f"GET {path} HTTP/1.1\r\nHost: localhost\r\nX-Forwarded-For: 198.51.100.200\r\nConnection: close\r\n\r\n".encode()
    while time.monotonic() < until:
        started = time.monotonic()
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(request)
            await writer.drain()
            line = await asyncio.wait_for(reader.readline(), timeout=10)
            status = line[9:12].decode(errors="replace") or "none"
            await reader.read()
            writer.close()
        except (asyncio.TimeoutError, OSError):
            status = "timeout"
        answers[status] = answers.get(status, 0) + 1
        latencies.append(time.monotonic() - started)
        # Ten a second (600 a minute, under the per-address budget of 1,200), readiness once a second.
        await asyncio.sleep(1 if path == "/readyz" else 0.1)


def summary(name: str, answers: dict, latencies: list) -> str:
    if not latencies:
        return f"{name}: no answer"
    ordered = sorted(latencies)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return (
        f"{name}: {sum(answers.values())} requests, by status {dict(sorted(answers.items()))}, "
        f"p50 {statistics.median(ordered) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms"
    )


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--connections", type=int, default=530)
    parser.add_argument("--seconds", type=float, default=40)
    parser.add_argument("--trickle", type=float, default=1.0, help="seconds between body bytes")
    parser.add_argument("--addresses", choices=["many", "one"], default="many")
    parser.add_argument("--warmup", type=float, default=3, help="seconds of honest traffic before the attack")
    arguments = parser.parse_args()

    # Honest traffic alone first: the baseline of this run.
    answers, latencies = {}, []
    await honest(arguments.port, "/openapi.yaml", time.monotonic() + arguments.warmup, answers, latencies)
    print(summary("before the attack, /openapi.yaml", answers, latencies))

    until = time.monotonic() + arguments.seconds
    stats = {"opened": 0, "closed_by_server": 0, "connect_failed": 0}
    address = lambda i: "203.0.113.9" if arguments.addresses == "one" else f"203.0.{113 + i // 250}.{i % 250 + 1}"
    attackers = [asyncio.create_task(attacker(arguments.port, address(i), arguments.trickle, until, stats)) for i in range(arguments.connections)]
    await asyncio.sleep(2)  # let them all take hold
    answers, latencies, ready, ready_latencies = {}, [], {}, []
    await asyncio.gather(
        honest(arguments.port, "/openapi.yaml", until, answers, latencies),
        honest(arguments.port, "/readyz", until, ready, ready_latencies),
    )
    await asyncio.gather(*attackers, return_exceptions=True)
    print(f"attack: {arguments.connections} connections from {arguments.addresses} address(es): {dict(sorted(stats.items()))}")
    print(summary("during the attack, /openapi.yaml", answers, latencies))
    print(summary("during the attack, /readyz", ready, ready_latencies))


if __name__ == "__main__":
    asyncio.run(main())
