"""Gives a signed-up user `friends` friends with `workouts` workouts each (and 50 of their own), written
straight into a migrated FitCircle database: the rows `POST /api/friends/*` and `POST /api/activities`
(and the job that follows a workout) would write. scripts/bench-feed.sh uses it. Usage: seed_feed.py sqlite|postgres TARGET VIEWER_ID FRIENDS WORKOUTS
"""
import json, random, sqlite3, sys, time

backend, target, viewer, friends, workouts = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
if backend == "sqlite":
    connection = sqlite3.connect(target, timeout=30)
    p, now, day = "?", time.time(), 86_400.0

    def instant(seconds):
        return seconds
else:
    import datetime
    import psycopg
    connection = psycopg.connect(target)
    p, now, day = "%s", time.time(), 86_400.0

    def instant(seconds):
        return datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc)

rng = random.Random(5)
cursor = connection.cursor()
users, friendships, events = [], [], []
for f in range(friends):
    user = f"friend{f:04d}"
    users.append((user, user + "@example.com", f"Friend {f}", instant(now - 400 * day), instant(now - 400 * day)))
    friendships += [(viewer, user, instant(now - 30 * day)), (user, viewer, instant(now - 30 * day))]
for owner, count in [(f"friend{f:04d}", workouts) for f in range(friends)] + [(viewer, 50)]:
    for w in range(count):
        at = now - (w + rng.random()) * day
        kind = rng.choice(["running", "walking", "cycling"])
        seconds, meters = rng.randint(900, 5400), float(rng.randint(2000, 20000))
        payload = json.dumps({"kind": "workout", "workout": {"caloriesEstimated": True, "calories": 300.0, "distanceMeters": meters,
                                                               "durationSeconds": seconds, "type": kind}}, sort_keys=True)
        local = time.strftime("%Y-%m-%d", time.gmtime(at))
        events.append((f"{owner}-w{w}", owner, f"w{w}", instant(at), local, instant(at), payload, kind, float(seconds), meters))
cursor.executemany(
    f"INSERT INTO users (id, email, role, display_name, weight_unit, height_unit, time_zone, visibility_age, visibility_weight, "
    f"visibility_height, created_at, updated_at) VALUES ({p}, {p}, 'member', {p}, 'kg', 'cm', 'UTC', 'friends', 'only_me', 'friends', {p}, {p})",
    users)
cursor.executemany(f"INSERT INTO friendships (user_id, friend_id, since) VALUES ({p}, {p}, {p})", friendships)
cursor.executemany(
    f"INSERT INTO activity_events (id, user_id, client_event_id, kind, occurred_at, time_zone, local_date, source, received_at, payload, "
    f"flags, workout_type, duration_seconds, distance_meters) VALUES ({p}, {p}, {p}, 'workout', {p}, 'UTC', {p}, 'app', {p}, {p}, '[]', {p}, {p}, {p})",
    events)
# The feed's index per reader, as recording the workouts (the author's row) and the job that follows (the
# friends' rows) would have written it.
cursor.execute("INSERT INTO feed_entries (reader_id, activity_id, author_id, occurred_at, workout_type) "
               "SELECT user_id, id, user_id, occurred_at, workout_type FROM activity_events WHERE kind = 'workout'")
cursor.execute("INSERT INTO feed_entries (reader_id, activity_id, author_id, occurred_at, workout_type) "
               "SELECT f.user_id, a.id, a.user_id, a.occurred_at, a.workout_type "
               "FROM friendships f JOIN activity_events a ON a.user_id = f.friend_id AND a.kind = 'workout'")
connection.commit()
# The planner's statistics, as autovacuum would gather them: committed, or PostgreSQL forgets them (the
# first runs of this benchmark measured plans made without any).
connection.execute("ANALYZE")
connection.commit()
print(f"{friends} friends, {len(events):,} workouts", file=sys.stderr)
