#!/usr/bin/env python3
"""The social half's flows walked end to end against a running server (scripts/fuzz-api.sh runs it between
schemathesis's phases): stake a challenge and read the ledger and the operator's file, block and read
everything of the blocker, remove a member whose circle stream is open, export. Every answer must be
below 500, and the server must still answer /healthz after each flow; any 5xx or a dead server fails.

Usage: scripts/fuzz-social-walk.py PORT
"""
import json
import sys
import threading
import time
import urllib.error
import urllib.request

BASE = f"http://127.0.0.1:{sys.argv[1]}"
answers = []


def call(method, path, token=None, body=None, timeout=30):
    request = urllib.request.Request(BASE + path, method=method)
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, data, timeout=timeout) as response:
            status, text = response.status, response.read().decode(errors="replace")
    except urllib.error.HTTPError as error:
        status, text = error.code, error.read().decode(errors="replace")
    except (urllib.error.URLError, ConnectionError, TimeoutError) as error:
        sys.exit(f"social walk: {method} {path} got no answer — the server died or hung: {error}")
    answers.append((method, path.split("?")[0], status))
    if status >= 500:
        sys.exit(f"social walk: {method} {path} answered {status}: {text[:300]}")
    try:
        return status, json.loads(text)
    except ValueError:  # an export (NDJSON), a stream, a photo: the text as it came
        return status, text


def alive(flow):
    try:
        with urllib.request.urlopen(BASE + "/healthz", timeout=10) as response:
            if response.status == 200:
                return
    except Exception as error:  # noqa: BLE001 - any failure means the node is gone
        sys.exit(f"social walk: the server stopped answering after '{flow}': {error}")
    sys.exit(f"social walk: /healthz not 200 after '{flow}'")


def person(email, name):
    _, signed = call("POST", "/api/auth/dev", body={"email": email})
    token = signed["accessToken"]
    call("PUT", "/api/user/profile", token, {"displayName": name, "age": 30, "weight": {"value": 70, "unit": "kg"}, "timeZone": "UTC"})
    return token, signed["user"]["id"]


tag = str(int(time.time() * 1000))
ana, ana_id = person(f"walk-ana-{tag}@example.com", "Ana Walk")
bo, bo_id = person(f"walk-bo-{tag}@example.com", "Bo Walk")

# Stake a challenge, then read the ledger, the record and the stake's challenge.
call("POST", "/api/streaks/checkin", ana, {"mood": 4, "energy": 3})
status, challenge = call("POST", "/api/competitions", ana,
                         {"name": "Walk", "type": "distance", "goal": "most", "durationDays": 1, "stake": 1, "visibility": "public"})
if status != 201:
    sys.exit(f"social walk: a staked challenge was refused: {status} {challenge}")
call("GET", "/api/points/ledger", ana)
call("GET", f"/api/users/{ana_id}/challenge-record", ana)
call("GET", f"/api/competitions/{challenge['id']}/leaderboard", bo)
alive("stake and read the ledger")

# Befriend, share a circle, then block: every read of the blocker, by the blocked.
call("POST", "/api/friends/request", bo, {"userId": ana_id})
call("POST", "/api/friends/accept", ana, {"userId": bo_id})
_, circle = call("POST", "/api/fitcircles", ana, {"name": "Walkers", "metric": "steps", "privacy": "private"})
call("POST", "/api/fitcircles/join", bo, {"code": circle["joinCode"]})
call("POST", f"/api/fitcircles/{circle['id']}/submit", ana)
call("POST", "/api/friends/blocks", ana, {"userId": bo_id})
for path in [f"/api/users/{ana_id}", f"/api/users/{ana_id}/badges", f"/api/users/{ana_id}/challenge-record",
             f"/api/users/{ana_id}/rivalry", f"/api/users/{ana_id}/photo", f"/api/fitcircles/{circle['id']}/members",
             f"/api/fitcircles/{circle['id']}/leaderboard", f"/api/fitcircles/{circle['id']}/feed",
             f"/api/fitcircles/{circle['id']}/leaderboard/user/{ana_id}", f"/api/competitions/{challenge['id']}",
             "/api/feed", "/api/competitions?scope=open", "/api/users/search?q=walk"]:
    call("GET", path, bo)
call("POST", f"/api/competitions/{challenge['id']}/join", bo, {})
alive("block and read")

# Remove a member whose circle stream is open: the stream ends, the node stays.
call("DELETE", f"/api/friends/blocks/{bo_id}", ana)
ended = {}


def stream():
    started = time.monotonic()
    ended["status"], _ = call("GET", f"/api/fitcircles/{circle['id']}/stream?seconds=30", bo, timeout=60)
    ended["seconds"] = time.monotonic() - started


listener = threading.Thread(target=stream)
listener.start()
time.sleep(1)
call("DELETE", f"/api/fitcircles/{circle['id']}/members/{bo_id}", ana)
listener.join(60)
if listener.is_alive() or ended.get("seconds", 99) > 20:
    sys.exit(f"social walk: the removed member's stream went on: {ended}")
call("GET", f"/api/fitcircles/{circle['id']}/feed", bo)
alive("remove and stream")

# Export, both accounts, to the end.
for token in (ana, bo):
    status, _ = call("GET", "/api/user/export", token, timeout=60)
    if status != 200:
        sys.exit(f"social walk: export answered {status}")
alive("export")

print(f"social walk: {len(answers)} requests, none 5xx; the node answered after each of 4 flows")
