"""Open circle streams on one node (scripts/bench-streams.sh): memory per open stream, and how soon one claim
reaches them all. Plain asyncio sockets, no dependencies.

usage: streams.py PORT CIRCLE VIEWER_TOKEN CLAIMER_TOKEN SERVER_PID STREAMS
"""
import asyncio, json, resource, sys, time, urllib.request

port, circle, viewer, claimer, pid, count = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), int(sys.argv[6])
resource.setrlimit(resource.RLIMIT_NOFILE, (resource.getrlimit(resource.RLIMIT_NOFILE)[1],) * 2)


def rss_kib():
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def post(path, body):
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=json.dumps(body).encode(), method="POST",
                                     headers={"Authorization": f"Bearer {claimer}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.status


class Stream:
    def __init__(self):
        self.ready = asyncio.get_running_loop().create_future()
        self.rank_at = None
        self.writer = None

    async def run(self, heard):
        reader, writer = await asyncio.open_connection("127.0.0.1", int(port))
        writer.write((f"GET /api/fitcircles/{circle}/stream?seconds=600 HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                      f"Authorization: Bearer {viewer}\r\nAccept: text/event-stream\r\n\r\n").encode())
        await writer.drain()
        status = await reader.readline()
        if b" 200 " not in status:
            self.ready.set_exception(RuntimeError(status.decode(errors="replace").strip()))
            return
        buffer = b""
        while True:
            chunk = await reader.read(65536)
            if not chunk:
                break
            buffer += chunk
            if not self.ready.done() and b"event: ready" in buffer:
                self.ready.set_result(True)
            if self.rank_at is None and b"event: rank" in buffer:
                self.rank_at = time.monotonic()
                heard.append(self.rank_at)
                # Kept open until every stream is measured: 10,000 clients hanging up at the moment of the
                # fan-out made the node close 10,000 connections while it told them (a cost of its own).
                self.writer = writer
                return
            buffer = buffer[-64:]


async def main():
    heard = []
    before = rss_kib()
    streams, tasks = [], []
    opened = time.monotonic()
    for start in range(0, count, 250):  # a batch at a time: the node admits a bounded number of requests at once
        batch = [Stream() for _ in range(min(250, count - start))]
        streams += batch
        tasks += [asyncio.create_task(stream.run(heard)) for stream in batch]
        results = await asyncio.gather(*(stream.ready for stream in batch), return_exceptions=True)
        failed = [r for r in results if isinstance(r, Exception)]
        if failed:
            print(f"{len(failed)} streams refused, e.g. {failed[0]}", file=sys.stderr)
            sys.exit(1)
        print(f"{start + len(batch)} streams open", file=sys.stderr, flush=True)
    open_seconds = time.monotonic() - opened
    await asyncio.sleep(6)  # a heartbeat round, so every stream's buffers are in use
    after = rss_kib()
    per_stream = (after - before) * 1024 / count
    print(f"streams: {count} open in {open_seconds:.1f} s; server RSS {before / 1024:.0f} MiB -> {after / 1024:.0f} MiB: "
          f"{per_stream / 1024:.1f} KiB per open stream")

    loop = asyncio.get_running_loop()
    now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    await loop.run_in_executor(None, post, "/api/activities",
                               {"clientEventId": "bench-claim", "type": "steps", "source": "healthkit", "occurredAt": now, "steps": 12345})
    claimed = time.monotonic()
    await loop.run_in_executor(None, post, f"/api/fitcircles/{circle}/submit", {})
    acknowledged = time.monotonic()
    deadline = acknowledged + 10
    while len(heard) < count and time.monotonic() < deadline:
        await asyncio.sleep(0.01)
    delays = sorted(t - claimed for t in heard)
    within = sum(1 for d in delays if d <= 1.0)
    pick = lambda q: delays[min(len(delays) - 1, int(q * len(delays)))] if delays else float("nan")
    print(f"claim: acknowledged after {(acknowledged - claimed) * 1000:.0f} ms; {len(delays)}/{count} streams heard it; "
          f"p50 {pick(0.5) * 1000:.0f} ms, p99 {pick(0.99) * 1000:.0f} ms, last {delays[-1] * 1000 if delays else float('nan'):.0f} ms; "
          f"{within * 100 / count:.1f} % within 1 s of the claim being sent")
    for task in tasks:
        task.cancel()
    for stream in streams:
        if stream.writer:
            stream.writer.close()


asyncio.run(main())
