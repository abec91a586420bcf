"""People search at scale: the search query of `Transaction.people(matching:)` against a primary-key read of
the same `users` table, in the same run, on SQLite and PostgreSQL (scripts/bench-search.sh runs it).

The database is migrated by `fitcircle migrate` and filled here with `accounts` people whose names are drawn
from 400 first names and 2,000 surnames, and their index entries (`NameSearch.terms`: each word, and the
whole name). The queries are the store's own SQL, with its binds; keep them in step with
Sources/FitCircleStore/Queries/Transaction+PeopleSearch.swift.
"""
import random, sqlite3, statistics, sys, time

SYLLABLES = ["ka", "lo", "mi", "ra", "ne", "to", "su", "vi", "an", "el", "jo", "ri", "da", "be", "no", "sa", "li", "mo", "te", "ga"]


def names(count, seed):
    rng = random.Random(seed)
    made = set()
    while len(made) < count:
        made.add("".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4))))
    return sorted(made)


FIRST = names(400, 1)
LAST = names(2000, 2)

EDGES = """
    EXISTS (SELECT 1 FROM friendships f WHERE f.user_id = {me} AND f.friend_id = {them}) AS are_friends,
    EXISTS (SELECT 1 FROM friend_requests r WHERE r.from_user = {me} AND r.to_user = {them}) AS requested_by_me,
    EXISTS (SELECT 1 FROM friend_requests r WHERE r.from_user = {them} AND r.to_user = {me}) AS requested_by_them,
    EXISTS (SELECT 1 FROM user_blocks b WHERE b.blocker_id = {me} AND b.blocked_id = {them}) AS blocked_by_me,
    EXISTS (SELECT 1 FROM user_blocks b WHERE b.blocker_id = {them} AND b.blocked_id = {me}) AS blocked_by_them
"""
# A batch of 25 entries (`Friends.searchBatch`: a page of 20 and a little more), read from the index alone:
# its entries carry what a result shows (migration 41).
SEARCH = """
    SELECT t.term, t.user_id AS id, t.display_name, t.photo_key, t.visibility_photo, {edges}
    FROM user_search_terms t
    WHERE t.whole = {whole} AND t.term >= {low} AND t.term < {high} AND NOT t.disabled
    ORDER BY t.term, t.user_id LIMIT 25
"""
# The query as it was before migration 41 (2026-11-28), for the same run's comparison: each entry joined to
# its account for what a result shows.
BEFORE = """
    SELECT t.term, u.id, u.display_name, u.photo_key, u.visibility_photo, {edges}
    FROM user_search_terms t JOIN users u ON u.id = t.user_id
    WHERE t.whole = {whole} AND t.term >= {low} AND t.term < {high} AND u.disabled_at IS NULL
    ORDER BY t.term, t.user_id LIMIT 25
"""
# Searchers: the first SEARCHERS accounts, each with FRIENDS friends.
SEARCHERS, FRIENDS = 1_000, 100
PRIMARY_KEY = "SELECT * FROM users WHERE id = {id}"


def rows(accounts):
    rng = random.Random(3)
    for i in range(accounts):
        first, last = rng.choice(FIRST), rng.choice(LAST)
        yield f"p{i:07d}", first + " " + last, [(False, first), (False, last), (True, first + " " + last)]


def fill(connection, placeholder, accounts, whole_true, whole_false, now):
    cursor = connection.cursor()
    batch_users, batch_terms = [], []
    started = time.time()

    def flush():
        p = placeholder
        if placeholder == "%s":  # PostgreSQL: COPY, some ten times faster than INSERTs
            with cursor.copy("COPY users (id, email, role, display_name, weight_unit, height_unit, time_zone, visibility_age, "
                             "visibility_weight, visibility_height, created_at, updated_at) FROM STDIN") as copy:
                for user, email, name, created, updated in batch_users:
                    copy.write_row((user, email, "member", name, "kg", "cm", "UTC", "friends", "only_me", "friends", created, updated))
            with cursor.copy("COPY user_search_terms (whole, term, user_id, display_name, visibility_photo, disabled) FROM STDIN") as copy:
                for row in batch_terms:
                    copy.write_row(row)
            connection.commit()
            batch_users.clear()
            batch_terms.clear()
            return
        cursor.executemany(
            f"INSERT INTO users (id, email, role, display_name, weight_unit, height_unit, time_zone, visibility_age, "
            f"visibility_weight, visibility_height, created_at, updated_at) VALUES ({p}, {p}, 'member', {p}, 'kg', 'cm', 'UTC', "
            f"'friends', 'only_me', 'friends', {p}, {p})", batch_users)
        cursor.executemany(f"INSERT INTO user_search_terms (whole, term, user_id, display_name, visibility_photo, disabled) VALUES ({p}, {p}, {p}, {p}, {p}, {p})", batch_terms)
        connection.commit()
        batch_users.clear()
        batch_terms.clear()

    for n, (user, name, terms) in enumerate(rows(accounts), 1):
        batch_users.append((user, user + "@example.com", name, now, now))
        batch_terms.extend(((whole_true if whole else whole_false), term, user, name, "everyone", whole_false) for whole, term in set(terms))
        if len(batch_users) == 10_000:
            flush()
            if n % 100_000 == 0:
                print(f"  {n:,} accounts ({time.time() - started:.0f} s)", file=sys.stderr, flush=True)
    if batch_users:
        flush()
    rng = random.Random(5)
    friendships = [(f"p{i:07d}", f"p{rng.randrange(accounts):07d}", now) for i in range(SEARCHERS) for _ in range(FRIENDS)]
    cursor.executemany(f"INSERT INTO friendships (user_id, friend_id, since) VALUES ({placeholder}, {placeholder}, {placeholder}) ON CONFLICT DO NOTHING", friendships)
    connection.commit()


def percentiles(samples):
    ordered = sorted(samples)
    return ordered[len(ordered) // 2], ordered[int(len(ordered) * 0.99) - 1]


def measure(connection, placeholder, accounts, queries, whole_false):
    cursor = connection.cursor()
    rng = random.Random(4)
    p = placeholder
    search = SEARCH.format(edges=EDGES.format(me=p, them="t.user_id"), whole=p, low=p, high=p)
    before = BEFORE.format(edges=EDGES.format(me=p, them="u.id"), whole=p, low=p, high=p)
    timings = {"search": [], "primary key": [], "before": []}
    found = []
    for _ in range(queries):
        me = f"p{rng.randrange(SEARCHERS):07d}"
        prefix = rng.choice(FIRST + LAST)[: rng.randint(3, 5)]
        started = time.perf_counter()
        cursor.execute(search, (me,) * 5 + (whole_false, prefix, prefix + "\U0010FFFF"))
        result = cursor.fetchall()
        timings["search"].append(time.perf_counter() - started)
        found.append(len(result))
        started = time.perf_counter()
        cursor.execute(PRIMARY_KEY.format(id=p), (f"p{rng.randrange(accounts):07d}",))
        cursor.fetchall()
        timings["primary key"].append(time.perf_counter() - started)
        started = time.perf_counter()
        cursor.execute(before, (me,) * 5 + (whole_false, prefix, prefix + "\U0010FFFF"))
        cursor.fetchall()
        timings["before"].append(time.perf_counter() - started)
    for name, samples in timings.items():
        p50, p99 = percentiles(samples)
        print(f"  {name:12s} p50 {p50 * 1000:7.3f} ms   p99 {p99 * 1000:7.3f} ms")
    s50, s99 = percentiles(timings["search"])
    k50, k99 = percentiles(timings["primary key"])
    b50, b99 = percentiles(timings["before"])
    print(f"  search ÷ primary key: p50 {s50 / k50:.1f}×, p99 {s99 / k99:.1f}× (before: {b50 / k50:.1f}×, {b99 / k99:.1f}×); "
          f"index entries read per search: median {statistics.median(found):.0f} (at most 25)")


def main():
    backend, target, accounts, queries = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    if backend == "sqlite":
        connection = sqlite3.connect(target)
        connection.execute("PRAGMA journal_mode=WAL")
        # SQLite keeps instants as seconds since 1970.
        placeholder, true, false, now = "?", 1, 0, 1_795_000_000
    else:
        import psycopg
        connection = psycopg.connect(target)
        placeholder, true, false, now = "%s", True, False, "2026-11-24T00:00:00Z"
    print(f"filling {accounts:,} accounts", file=sys.stderr, flush=True)
    fill(connection, placeholder, accounts, true, false, now)
    if backend == "postgres":
        # What autovacuum does to a table at rest: statistics, and the visibility map an index-only scan needs.
        connection.commit()
        connection.autocommit = True
        connection.execute("VACUUM ANALYZE")
        connection.autocommit = False
        plan = connection.execute(
            "EXPLAIN " + SEARCH.format(edges="1 AS one", whole="%s", low="%s", high="%s"), (False, "kam", "kam\U0010FFFF")).fetchall()
        print("  plan: " + " / ".join(line[0].strip() for line in plan[:3]))
    else:
        connection.execute("ANALYZE")
        plan = connection.execute(
            "EXPLAIN QUERY PLAN " + SEARCH.format(edges="1 AS one", whole="?", low="?", high="?"), (0, "kam", "kam\U0010FFFF")).fetchall()
        print("  plan: " + " / ".join(row[-1] for row in plan))
    measure(connection, placeholder, accounts, queries, false)


main()
