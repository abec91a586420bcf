/// The schema, in order. Column types are chosen to mean the same on both databases: `TIMESTAMPTZ` holds
/// instants (seconds since 1970 on SQLite), `TEXT` holds ids, enums and ISO local dates (`2026-11-22`).
enum Migrations {
    static let all: [Migration] = [
        Migration(
            version: 1,
            name: "users, identities and sessions",
            statements: [
                .init(
                    """
                    CREATE TABLE users (
                        id TEXT PRIMARY KEY,
                        email TEXT NOT NULL,
                        role TEXT NOT NULL,
                        display_name TEXT NOT NULL,
                        age INTEGER,
                        weight_kg DOUBLE PRECISION,
                        weight_unit TEXT NOT NULL,
                        height_cm DOUBLE PRECISION,
                        height_unit TEXT NOT NULL,
                        gender TEXT,
                        time_zone TEXT NOT NULL,
                        visibility_age TEXT NOT NULL,
                        visibility_weight TEXT NOT NULL,
                        visibility_height TEXT NOT NULL,
                        photo_key TEXT,
                        onboarded_at TIMESTAMPTZ,
                        disabled_at TIMESTAMPTZ,
                        created_at TIMESTAMPTZ NOT NULL,
                        updated_at TIMESTAMPTZ NOT NULL
                    )
                    """
                ),
                .init("CREATE INDEX users_email ON users (email)"),
                .init(
                    """
                    CREATE TABLE identities (
                        provider TEXT NOT NULL,
                        subject TEXT NOT NULL,
                        user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                        email TEXT,
                        created_at TIMESTAMPTZ NOT NULL,
                        PRIMARY KEY (provider, subject)
                    )
                    """
                ),
                .init("CREATE INDEX identities_user ON identities (user_id)"),
                .init(
                    """
                    CREATE TABLE sessions (
                        id TEXT PRIMARY KEY,
                        user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                        created_at TIMESTAMPTZ NOT NULL,
                        revoked_at TIMESTAMPTZ,
                        revoked_reason TEXT
                    )
                    """
                ),
                .init("CREATE INDEX sessions_user ON sessions (user_id)"),
                .init(
                    """
                    CREATE TABLE refresh_tokens (
                        token_hash TEXT PRIMARY KEY,
                        session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
                        issued_at TIMESTAMPTZ NOT NULL,
                        expires_at TIMESTAMPTZ NOT NULL,
                        used_at TIMESTAMPTZ
                    )
                    """
                ),
                .init("CREATE INDEX refresh_tokens_session ON refresh_tokens (session_id)"),
                .init(
                    """
                    CREATE TABLE server_secrets (
                        name TEXT PRIMARY KEY,
                        secret TEXT NOT NULL,
                        created_at TIMESTAMPTZ NOT NULL
                    )
                    """
                ),
            ]
        ),
        Migration(
            version: 2,
            name: "activity ledger, daily tracking and idempotency keys",
            statements: [
                .init(
                    """
                    CREATE TABLE activity_events (
                        id TEXT PRIMARY KEY,
                        user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                        client_event_id TEXT NOT NULL,
                        kind TEXT NOT NULL,
                        occurred_at TIMESTAMPTZ NOT NULL,
                        time_zone TEXT NOT NULL,
                        local_date TEXT NOT NULL,
                        source TEXT NOT NULL,
                        received_at TIMESTAMPTZ NOT NULL,
                        payload TEXT NOT NULL,
                        flags TEXT NOT NULL,
                        workout_type TEXT,
                        duration_seconds DOUBLE PRECISION,
                        distance_meters DOUBLE PRECISION,
                        deleted_at TIMESTAMPTZ,
                        UNIQUE (user_id, client_event_id)
                    )
                    """
                ),
                .init("CREATE INDEX activity_events_user_date ON activity_events (user_id, local_date)"),
                .init("CREATE INDEX activity_events_user_occurred ON activity_events (user_id, occurred_at, id)"),
                .init(
                    """
                    CREATE TABLE daily_tracking (
                        user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                        local_date TEXT NOT NULL,
                        steps INTEGER NOT NULL,
                        synced_steps INTEGER NOT NULL,
                        manual_steps INTEGER NOT NULL,
                        weight_kg DOUBLE PRECISION,
                        workouts INTEGER NOT NULL,
                        active_minutes DOUBLE PRECISION NOT NULL,
                        distance_meters DOUBLE PRECISION NOT NULL,
                        calories DOUBLE PRECISION NOT NULL,
                        pushup_reps INTEGER NOT NULL,
                        water_ml DOUBLE PRECISION NOT NULL,
                        app_opened BOOLEAN NOT NULL,
                        updated_at TIMESTAMPTZ NOT NULL,
                        PRIMARY KEY (user_id, local_date)
                    )
                    """
                ),
                .init(
                    """
                    CREATE TABLE idempotency_keys (
                        user_id TEXT NOT NULL,
                        idempotency_key TEXT NOT NULL,
                        request_hash TEXT NOT NULL,
                        status_code INTEGER,
                        content_type TEXT,
                        body TEXT,
                        created_at TIMESTAMPTZ NOT NULL,
                        PRIMARY KEY (user_id, idempotency_key)
                    )
                    """
                ),
                .init("CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at)"),
            ]
        ),
        Migration(
            version: 3,
            name: "check-ins and the streak ledger",
            statements: [
                .init("ALTER TABLE daily_tracking ADD COLUMN checked_in BOOLEAN NOT NULL DEFAULT FALSE"),
                .init("ALTER TABLE daily_tracking ADD COLUMN checked_in_late BOOLEAN NOT NULL DEFAULT FALSE"),
                .init("ALTER TABLE daily_tracking ADD COLUMN mood INTEGER"),
                .init("ALTER TABLE daily_tracking ADD COLUMN energy INTEGER"),
                .init("ALTER TABLE daily_tracking ADD COLUMN previous_day_sentiment TEXT"),
                .init(
                    """
                    CREATE TABLE streaks (
                        user_id TEXT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
                        state TEXT NOT NULL,
                        evaluated_through TEXT NOT NULL,
                        updated_at TIMESTAMPTZ NOT NULL
                    )
                    """
                ),
                .init(
                    """
                    CREATE TABLE streak_entries (
                        user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                        period TEXT NOT NULL,
                        status TEXT NOT NULL,
                        reason TEXT NOT NULL,
                        streak INTEGER NOT NULL,
                        state TEXT NOT NULL,
                        comeback BOOLEAN NOT NULL,
                        milestone INTEGER,
                        milestone_badge TEXT,
                        PRIMARY KEY (user_id, period)
                    )
                    """
                ),
                .init(
                    """
                    CREATE TABLE streak_freeze_requests (
                        user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                        period TEXT NOT NULL,
                        requested_at TIMESTAMPTZ NOT NULL,
                        PRIMARY KEY (user_id, period)
                    )
                    """
                ),
            ]
        ),
        Migration(
            version: 4,
            name: "training settings, daily and weekly goals",
            statements: [
                .init(
                    """
                    CREATE TABLE training_settings (
                        user_id TEXT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
                        settings TEXT NOT NULL,
                        updated_at TIMESTAMPTZ NOT NULL
                    )
                    """
                ),
                .init(
                    """
                    CREATE TABLE goals (
                        id TEXT PRIMARY KEY,
                        user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                        span TEXT NOT NULL,
                        period TEXT NOT NULL,
                        type TEXT NOT NULL,
                        target DOUBLE PRECISION NOT NULL,
                        basis TEXT NOT NULL,
                        completed_at TIMESTAMPTZ,
                        created_at TIMESTAMPTZ NOT NULL,
                        UNIQUE (user_id, span, period, type)
                    )
                    """
                ),
                .init(
                    """
                    CREATE TABLE weekly_summaries (
                        user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                        week_start TEXT NOT NULL,
                        seen_at TIMESTAMPTZ,
                        choice TEXT,
                        chosen_at TIMESTAMPTZ,
                        PRIMARY KEY (user_id, week_start)
                    )
                    """
                ),
            ]
        ),
        Migration(
            version: 5,
            name: "points ledger, reward stats, badges",
            statements: [
                .init(
                    sqlite: "CREATE TABLE points_ledger (seq INTEGER PRIMARY KEY AUTOINCREMENT, \(Self.pointsLedgerColumns))",
                    postgres: "CREATE TABLE points_ledger (seq BIGSERIAL PRIMARY KEY, \(Self.pointsLedgerColumns))"
                ),
                .init("CREATE INDEX points_ledger_user_date ON points_ledger (user_id, local_date)"),
                .init("CREATE INDEX points_ledger_user_seq ON points_ledger (user_id, seq)"),
                .init(
                    """
                    CREATE TABLE reward_stats (
                        user_id TEXT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
                        total_points BIGINT NOT NULL,
                        level INTEGER NOT NULL,
                        counters TEXT NOT NULL,
                        updated_at TIMESTAMPTZ NOT NULL
                    )
                    """
                ),
                .init(
                    """
                    CREATE TABLE user_badges (
                        user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                        badge_id TEXT NOT NULL,
                        name TEXT NOT NULL,
                        local_date TEXT NOT NULL,
                        unlocked_at TIMESTAMPTZ NOT NULL,
                        PRIMARY KEY (user_id, badge_id)
                    )
                    """
                ),
                .init("CREATE INDEX user_badges_badge ON user_badges (badge_id)"),
                .init(
                    """
                    CREATE TABLE badge_showcases (
                        user_id TEXT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
                        badge_ids TEXT NOT NULL,
                        updated_at TIMESTAMPTZ NOT NULL
                    )
                    """
                ),
                .init(
                    """
                    CREATE TABLE reward_events (
                        id TEXT PRIMARY KEY,
                        user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                        kind TEXT NOT NULL,
                        local_date TEXT NOT NULL,
                        data TEXT NOT NULL,
                        created_at TIMESTAMPTZ NOT NULL
                    )
                    """
                ),
                .init("CREATE INDEX reward_events_user ON reward_events (user_id, created_at)"),
            ]
        ),
        Migration(
            version: 6,
            name: "durable jobs",
            statements: [
                .init(
                    """
                    CREATE TABLE jobs (
                        id TEXT PRIMARY KEY,
                        kind TEXT NOT NULL,
                        payload TEXT NOT NULL,
                        dedupe_key TEXT NOT NULL UNIQUE,
                        status TEXT NOT NULL,
                        run_at TIMESTAMPTZ NOT NULL,
                        attempts INTEGER NOT NULL,
                        max_attempts INTEGER NOT NULL,
                        lease_owner TEXT,
                        lease_expires_at TIMESTAMPTZ,
                        last_error TEXT,
                        created_at TIMESTAMPTZ NOT NULL,
                        finished_at TIMESTAMPTZ
                    )
                    """
                ),
                .init("CREATE INDEX jobs_due ON jobs (status, run_at)"),
                .init("CREATE INDEX users_time_zone ON users (time_zone)"),
            ]
        ),
        Migration(
            version: 7,
            name: "notification preferences",
            statements: [
                .init(
                    """
                    CREATE TABLE notification_preferences (
                        user_id TEXT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
                        preferences TEXT NOT NULL,
                        updated_at TIMESTAMPTZ NOT NULL
                    )
                    """
                ),
            ]
        ),
        Migration(
            version: 8,
            name: "push devices and the notification log",
            statements: [
                .init(
                    """
                    CREATE TABLE push_devices (
                        id TEXT PRIMARY KEY,
                        user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                        platform TEXT NOT NULL,
                        token TEXT NOT NULL,
                        environment TEXT NOT NULL,
                        active BOOLEAN NOT NULL,
                        registered_at TIMESTAMPTZ NOT NULL,
                        UNIQUE (platform, token)
                    )
                    """
                ),
                .init("CREATE INDEX push_devices_user ON push_devices (user_id)"),
                .init(
                    """
                    CREATE TABLE notifications (
                        id TEXT PRIMARY KEY,
                        user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                        type TEXT NOT NULL,
                        dedupe_key TEXT NOT NULL,
                        critical BOOLEAN NOT NULL,
                        title TEXT NOT NULL,
                        body TEXT NOT NULL,
                        deep_link TEXT,
                        data TEXT NOT NULL,
                        status TEXT NOT NULL,
                        reason TEXT,
                        channels TEXT NOT NULL,
                        local_date TEXT NOT NULL,
                        decided_at TIMESTAMPTZ NOT NULL,
                        deliver_at TIMESTAMPTZ,
                        read_at TIMESTAMPTZ,
                        opened_at TIMESTAMPTZ,
                        action_at TIMESTAMPTZ,
                        trail TEXT NOT NULL,
                        UNIQUE (user_id, dedupe_key)
                    )
                    """
                ),
                .init("CREATE INDEX notifications_user_decided ON notifications (user_id, decided_at)"),
            ]
        ),
        Migration(
            version: 9,
            name: "the daily planner's columns of users",
            // The daily planner reads, for every user of a zone, when to reach them: their reminder time, quiet
            // hours and habitual time. On the user's row that is one scan; a join, or decoding each user's
            // preferences, would cost more than the whole scan. `notification_preferences` stays the document
            // (these follow it on every save); `send_habit` follows the user's check-ins and workouts.
            statements: ["reminder_time", "quiet_start", "quiet_end", "send_habit"].map { column in
                .init("ALTER TABLE users ADD COLUMN \(column) TEXT")
            } + [("reminder_time", "reminderTime"), ("quiet_start", "quietStart"), ("quiet_end", "quietEnd")].map { column, key in
                .init(
                    sqlite: "UPDATE users SET \(column) = (SELECT json_extract(preferences, '$.\(key)') FROM notification_preferences WHERE user_id = users.id)",
                    postgres: "UPDATE users SET \(column) = (SELECT preferences::jsonb ->> '\(key)' FROM notification_preferences WHERE user_id = users.id)")
            }
        ),
        Migration(
            version: 10,
            name: "circles, their members over time and invitations",
            statements: [
                .init(
                    """
                    CREATE TABLE circles (
                        id TEXT PRIMARY KEY,
                        name TEXT NOT NULL,
                        description TEXT,
                        metric TEXT NOT NULL,
                        start_date TEXT NOT NULL,
                        end_date TEXT,
                        time_zone TEXT NOT NULL,
                        privacy TEXT NOT NULL,
                        member_limit INTEGER NOT NULL,
                        owner_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                        join_code TEXT NOT NULL UNIQUE,
                        archived_at TIMESTAMPTZ,
                        created_at TIMESTAMPTZ NOT NULL,
                        updated_at TIMESTAMPTZ NOT NULL
                    )
                    """
                ),
                // One row per stint: leaving sets left_at, coming back adds a row. At most one open stint.
                .init(
                    """
                    CREATE TABLE circle_members (
                        circle_id TEXT NOT NULL REFERENCES circles (id) ON DELETE CASCADE,
                        user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                        role TEXT NOT NULL,
                        joined_at TIMESTAMPTZ NOT NULL,
                        left_at TIMESTAMPTZ,
                        starting_weight_kg DOUBLE PRECISION,
                        target_weight_kg DOUBLE PRECISION
                    )
                    """
                ),
                .init("CREATE UNIQUE INDEX circle_members_current ON circle_members (circle_id, user_id) WHERE left_at IS NULL"),
                .init("CREATE INDEX circle_members_user ON circle_members (user_id, circle_id)"),
                .init(
                    """
                    CREATE TABLE circle_invitations (
                        id TEXT PRIMARY KEY,
                        circle_id TEXT NOT NULL REFERENCES circles (id) ON DELETE CASCADE,
                        user_id TEXT REFERENCES users (id) ON DELETE CASCADE,
                        email TEXT,
                        invited_by TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                        created_at TIMESTAMPTZ NOT NULL,
                        accepted_at TIMESTAMPTZ
                    )
                    """
                ),
                .init("CREATE INDEX circle_invitations_circle ON circle_invitations (circle_id)"),
                .init("CREATE INDEX circle_invitations_user ON circle_invitations (user_id)"),
            ]
        ),
        Migration(
            version: 11,
            name: "circle submissions",
            statements: [
                // rank_after and rank_change are written by the boards.
                .init(
                    """
                    CREATE TABLE circle_submissions (
                        circle_id TEXT NOT NULL REFERENCES circles (id) ON DELETE CASCADE,
                        user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                        local_date TEXT NOT NULL,
                        steps INTEGER NOT NULL,
                        weight_kg DOUBLE PRECISION,
                        submitted_at TIMESTAMPTZ NOT NULL,
                        updated_at TIMESTAMPTZ NOT NULL,
                        rank_after INTEGER,
                        rank_change INTEGER,
                        PRIMARY KEY (circle_id, user_id, local_date)
                    )
                    """
                ),
                .init("CREATE INDEX circle_submissions_user ON circle_submissions (user_id, local_date)"),
            ]
        ),
        Migration(
            version: 12,
            name: "circle boards, snapshots and feed",
            statements: [
                .init("ALTER TABLE circle_submissions ADD COLUMN checkin_streak INTEGER NOT NULL DEFAULT 0"),
                // One row per member on each board they have a claim on; derived from circle_submissions.
                // reached_ms: milliseconds since 1970, so both databases and the in-memory index agree on ties.
                .init(
                    """
                    CREATE TABLE circle_scores (
                        circle_id TEXT NOT NULL REFERENCES circles (id) ON DELETE CASCADE,
                        period TEXT NOT NULL,
                        period_start TEXT NOT NULL,
                        user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                        value DOUBLE PRECISION NOT NULL,
                        reached_ms BIGINT NOT NULL,
                        PRIMARY KEY (circle_id, period, period_start, user_id)
                    )
                    """
                ),
                .init("CREATE INDEX circle_scores_order ON circle_scores (circle_id, period, period_start, value DESC, reached_ms, user_id)"),
                // The final ranks of a closed period: the baseline of the arrows and the history.
                .init(
                    """
                    CREATE TABLE circle_board_snapshots (
                        circle_id TEXT NOT NULL REFERENCES circles (id) ON DELETE CASCADE,
                        period TEXT NOT NULL,
                        period_start TEXT NOT NULL,
                        user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                        rank INTEGER NOT NULL,
                        value DOUBLE PRECISION NOT NULL,
                        taken_at TIMESTAMPTZ NOT NULL,
                        PRIMARY KEY (circle_id, period, period_start, user_id)
                    )
                    """
                ),
                .init("CREATE INDEX circle_board_snapshots_rank ON circle_board_snapshots (circle_id, period, period_start, rank)"),
                .init(
                    """
                    CREATE TABLE circle_feed (
                        id TEXT PRIMARY KEY,
                        circle_id TEXT NOT NULL REFERENCES circles (id) ON DELETE CASCADE,
                        kind TEXT NOT NULL,
                        actor_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                        text TEXT NOT NULL,
                        data TEXT NOT NULL,
                        dedupe_key TEXT NOT NULL,
                        created_at TIMESTAMPTZ NOT NULL,
                        UNIQUE (circle_id, dedupe_key)
                    )
                    """
                ),
                .init("CREATE INDEX circle_feed_order ON circle_feed (circle_id, created_at, id)"),
                .init(
                    """
                    CREATE TABLE circle_encouragements (
                        item_id TEXT NOT NULL REFERENCES circle_feed (id) ON DELETE CASCADE,
                        sender_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                        message TEXT,
                        created_at TIMESTAMPTZ NOT NULL,
                        PRIMARY KEY (item_id, sender_id)
                    )
                    """
                ),
            ]
        ),
        Migration(
            version: 13,
            name: "circle member counts",
            statements: [
                // Kept by every join and leave (under the circle's lock): counting a 50,000-member circle's
                // open stints took ~9 ms, on each read of its board.
                .init("ALTER TABLE circles ADD COLUMN member_count INTEGER NOT NULL DEFAULT 0"),
                .init(
                    """
                    UPDATE circles SET member_count = (
                        SELECT COUNT(*) FROM circle_members m WHERE m.circle_id = circles.id AND m.left_at IS NULL)
                    """
                ),
            ]
        ),
        Migration(
            version: 14,
            name: "delivery attempts and device hygiene",
            statements: [
                // Every try to hand a notification to a provider, per target (a device, an address, the webhook).
                .init(
                    """
                    CREATE TABLE delivery_attempts (
                        id TEXT PRIMARY KEY,
                        notification_id TEXT NOT NULL REFERENCES notifications (id) ON DELETE CASCADE,
                        channel TEXT NOT NULL,
                        target TEXT NOT NULL,
                        provider TEXT NOT NULL,
                        attempt INTEGER NOT NULL,
                        outcome TEXT NOT NULL,
                        reason TEXT,
                        status INTEGER,
                        latency_ms INTEGER NOT NULL,
                        attempted_at TIMESTAMPTZ NOT NULL
                    )
                    """
                ),
                .init("CREATE INDEX delivery_attempts_notification ON delivery_attempts (notification_id, attempted_at)"),
                // A device's last successful delivery (tokens unused for 270 days expire), how often in a row
                // a provider doubted its token, and why it was deactivated.
                .init("ALTER TABLE push_devices ADD COLUMN last_used_at TIMESTAMPTZ"),
                .init("ALTER TABLE push_devices ADD COLUMN suspect_count INTEGER NOT NULL DEFAULT 0"),
                .init("ALTER TABLE push_devices ADD COLUMN deactivated_reason TEXT"),
            ]
        ),
        Migration(
            version: 15,
            name: "email log",
            statements: [
                // One email per notification (its retries reuse the row, the Message-ID and the links): where it
                // went, what it said, where its tracked links lead, and when it was opened and clicked.
                .init(
                    """
                    CREATE TABLE email_log (
                        notification_id TEXT PRIMARY KEY REFERENCES notifications (id) ON DELETE CASCADE,
                        user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                        type TEXT NOT NULL,
                        address TEXT NOT NULL,
                        subject TEXT NOT NULL,
                        message_id TEXT NOT NULL,
                        links TEXT NOT NULL,
                        created_at TIMESTAMPTZ NOT NULL,
                        opened_at TIMESTAMPTZ,
                        open_count INTEGER NOT NULL DEFAULT 0,
                        clicked_at TIMESTAMPTZ,
                        click_count INTEGER NOT NULL DEFAULT 0
                    )
                    """
                ),
                .init("CREATE INDEX email_log_user ON email_log (user_id, created_at)"),
            ]
        ),
        Migration(
            version: 16,
            name: "circle bans and invitation limits",
            statements: [
                // Invitations lapse 14 days after created_at (no column: the rule is in Core) or when revoked.
                .init("ALTER TABLE circle_invitations ADD COLUMN revoked_at TIMESTAMPTZ"),
                // The daily caps count invitations per sender and per recipient (account or address).
                .init("CREATE INDEX circle_invitations_sender ON circle_invitations (invited_by, created_at)"),
                .init("CREATE INDEX circle_invitations_email ON circle_invitations (email, created_at)"),
                // A removed member stays out (join code or not) until a manager lifts the ban.
                .init(
                    """
                    CREATE TABLE circle_bans (
                        circle_id TEXT NOT NULL REFERENCES circles (id) ON DELETE CASCADE,
                        user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                        banned_by TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                        banned_at TIMESTAMPTZ NOT NULL,
                        PRIMARY KEY (circle_id, user_id)
                    )
                    """
                ),
            ]
        ),
        Migration(
            version: 17,
            name: "shared rate limits",
            statements: [
                // The limits every node must count together (sign-in, refresh, join, invite): one instant per
                // key, `RateLimit`'s state. Rows whose instant has passed carry nothing and are purged.
                .init("CREATE TABLE rate_limits (limit_key TEXT PRIMARY KEY, arrival TIMESTAMPTZ NOT NULL)"),
                .init("CREATE INDEX rate_limits_arrival ON rate_limits (arrival)"),
            ]
        ),
        Migration(
            version: 18,
            name: "friends, blocks and the people search index",
            statements: [
                // A request waits for its answer; accepting or declining deletes it.
                .init(
                    """
                    CREATE TABLE friend_requests (
                        from_user TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                        to_user TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                        created_at TIMESTAMPTZ NOT NULL,
                        PRIMARY KEY (from_user, to_user)
                    )
                    """
                ),
                .init("CREATE INDEX friend_requests_to ON friend_requests (to_user, created_at)"),
                // Mutual: one row each way, so "my friends" is a range of the primary key.
                .init(
                    """
                    CREATE TABLE friendships (
                        user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                        friend_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                        since TIMESTAMPTZ NOT NULL,
                        PRIMARY KEY (user_id, friend_id)
                    )
                    """
                ),
                .init("CREATE INDEX friendships_friend ON friendships (friend_id)"),
                .init(
                    """
                    CREATE TABLE user_blocks (
                        blocker_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                        blocked_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                        created_at TIMESTAMPTZ NOT NULL,
                        PRIMARY KEY (blocker_id, blocked_id)
                    )
                    """
                ),
                .init("CREATE INDEX user_blocks_blocked ON user_blocks (blocked_id)"),
                // `NameSearch`'s terms: a prefix is a range of the primary key, compared byte by byte on both
                // databases (SQLite's default; PostgreSQL's "C" collation, whatever the database's is).
                .init(
                    sqlite: """
                        CREATE TABLE user_search_terms (
                            whole BOOLEAN NOT NULL,
                            term TEXT NOT NULL,
                            user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                            PRIMARY KEY (whole, term, user_id)
                        )
                        """,
                    postgres: """
                        CREATE TABLE user_search_terms (
                            whole BOOLEAN NOT NULL,
                            term TEXT COLLATE "C" NOT NULL,
                            user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                            PRIMARY KEY (whole, term, user_id)
                        )
                        """
                ),
                .init("CREATE INDEX user_search_terms_user ON user_search_terms (user_id)"),
            ],
            // Accounts made before the index are indexed by migration 41, whose entries carry more.
        ),
        Migration(
            version: 19,
            name: "activity visibility and reactions",
            statements: [
                // Who else sees an activity (`ActivityVisibility`); everything recorded before was for friends.
                .init("ALTER TABLE activity_events ADD COLUMN visibility TEXT NOT NULL DEFAULT 'friends'"),
                // The friends' feed reads each friend's workouts newest first.
                .init("CREATE INDEX activity_events_feed ON activity_events (user_id, kind, occurred_at, id)"),
                .init(
                    """
                    CREATE TABLE activity_reactions (
                        activity_id TEXT NOT NULL REFERENCES activity_events (id) ON DELETE CASCADE,
                        user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                        reaction TEXT NOT NULL,
                        created_at TIMESTAMPTZ NOT NULL,
                        PRIMARY KEY (activity_id, user_id, reaction)
                    )
                    """
                ),
                .init("CREATE INDEX activity_reactions_user ON activity_reactions (user_id)"),
            ]
        ),
        Migration(
            version: 20,
            name: "the person a notification names",
            statements: [
                // Copied from `data` (`NotificationNaming.actorKey`): a deleted account's mentions are found by
                // index, not by reading every notification.
                .init("ALTER TABLE notifications ADD COLUMN actor_id TEXT"),
                .init("CREATE INDEX notifications_actor ON notifications (actor_id) WHERE actor_id IS NOT NULL"),
            ]
        ),
        Migration(
            version: 21,
            name: "who sees a person's photo and their name on boards",
            statements: [
                .init("ALTER TABLE users ADD COLUMN visibility_photo TEXT NOT NULL DEFAULT 'everyone'"),
                .init("ALTER TABLE users ADD COLUMN visibility_board_name TEXT NOT NULL DEFAULT 'everyone'"),
            ]
        ),
        Migration(
            version: 22,
            name: "migration sessions",
            statements: [
                .init(
                    """
                    CREATE TABLE migration_sessions (
                        id TEXT PRIMARY KEY,
                        user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                        expected INTEGER,
                        created_at TIMESTAMPTZ NOT NULL
                    )
                    """
                ),
                .init("CREATE INDEX migration_sessions_user ON migration_sessions (user_id, created_at)"),
                // Each client event once per session, with its latest answer (`MigrationSession.Outcome`).
                .init(
                    """
                    CREATE TABLE migration_events (
                        migration_id TEXT NOT NULL REFERENCES migration_sessions (id) ON DELETE CASCADE,
                        client_event_id TEXT NOT NULL,
                        outcome TEXT NOT NULL,
                        PRIMARY KEY (migration_id, client_event_id)
                    )
                    """
                ),
            ]
        ),
        Migration(
            version: 23,
            name: "blobs in the database",
            statements: [
                // For `DatabaseBlobStore`: files (profile photos) where every node finds them.
                .init(
                    sqlite: "CREATE TABLE blobs (key TEXT PRIMARY KEY, content_type TEXT NOT NULL, data BLOB NOT NULL)",
                    postgres: "CREATE TABLE blobs (key TEXT PRIMARY KEY, content_type TEXT NOT NULL, data BYTEA NOT NULL)"
                ),
            ]
        ),
        Migration(
            version: 24,
            name: "reminder plan stamps, chosen reminder times and activity baselines",
            statements: [
                // When the user's scheduled notifications were last planned for them alone (a new account, a
                // new zone or reminder time), in milliseconds since 1970: triggers planned before pass them over.
                .init(sqlite: "ALTER TABLE users ADD COLUMN reminder_plan INTEGER", postgres: "ALTER TABLE users ADD COLUMN reminder_plan BIGINT"),
                // `reminder_time` now holds only a time the user chose (it wins over the learned one); the
                // default every account was saved with is no choice.
                .init("UPDATE users SET reminder_time = NULL WHERE reminder_time = '20:00'"),
                // How active a newcomer says they are (sedentary | moderate): the first days' step goal.
                .init("ALTER TABLE users ADD COLUMN activity_baseline TEXT"),
            ]
        ),
        Migration(
            version: 25,
            name: "circle step goals",
            statements: [
                // Step circles with an end: the steps each member aims for over the competition (spec 000 F2).
                .init("ALTER TABLE circles ADD COLUMN step_goal INTEGER")
            ]
        ),
        Migration(
            version: 26,
            name: "weekly content",
            statements: [
                // Spec 003 §1: what an app publishes per ISO week ("2026-W10"), and who has seen which.
                .init(
                    """
                    CREATE TABLE weekly_content (
                        content_key TEXT NOT NULL,
                        week TEXT NOT NULL,
                        published_at TIMESTAMPTZ NOT NULL,
                        PRIMARY KEY (week, content_key)
                    )
                    """
                ),
                .init(
                    """
                    CREATE TABLE weekly_content_seen (
                        user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                        week TEXT NOT NULL,
                        content_key TEXT NOT NULL,
                        seen_at TIMESTAMPTZ NOT NULL,
                        PRIMARY KEY (user_id, week, content_key)
                    )
                    """
                ),
            ]
        ),
        Migration(
            version: 27,
            name: "one board engine; challenges and competitions",
            statements: [
                // Boards belong to a circle or a challenge: circle_scores becomes board_scores, its owner named
                // by kind and id (no foreign key to circles any more: deleting a circle or a challenge deletes
                // its rows).
                .init(
                    """
                    CREATE TABLE board_scores (
                        owner_kind TEXT NOT NULL,
                        owner_id TEXT NOT NULL,
                        period TEXT NOT NULL,
                        period_start TEXT NOT NULL,
                        user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                        value DOUBLE PRECISION NOT NULL,
                        reached_ms BIGINT NOT NULL,
                        PRIMARY KEY (owner_id, period, period_start, user_id)
                    )
                    """
                ),
                .init(
                    """
                    INSERT INTO board_scores (owner_kind, owner_id, period, period_start, user_id, value, reached_ms)
                    SELECT 'circle', circle_id, period, period_start, user_id, value, reached_ms FROM circle_scores
                    """
                ),
                .init("DROP TABLE circle_scores"),
                .init("CREATE INDEX board_scores_order ON board_scores (owner_id, period, period_start, value DESC, reached_ms, user_id)"),
                .init("CREATE INDEX board_scores_user ON board_scores (user_id)"),
                // Specs 002 and 004. `rule` is the ChallengeRule as JSON; `escrow` the XP staked and not yet paid out.
                .init(
                    """
                    CREATE TABLE challenges (
                        id TEXT PRIMARY KEY,
                        name TEXT NOT NULL,
                        description TEXT,
                        type TEXT NOT NULL,
                        rule TEXT NOT NULL,
                        visibility TEXT NOT NULL,
                        join_code TEXT NOT NULL UNIQUE,
                        creator_id TEXT NOT NULL,
                        time_zone TEXT NOT NULL,
                        starts_at TIMESTAMPTZ NOT NULL,
                        ends_at TIMESTAMPTZ NOT NULL,
                        stake INTEGER NOT NULL,
                        min_participants INTEGER NOT NULL,
                        max_participants INTEGER NOT NULL,
                        template_id TEXT,
                        template_version INTEGER,
                        participant_count INTEGER NOT NULL DEFAULT 0,
                        escrow INTEGER NOT NULL DEFAULT 0,
                        created_at TIMESTAMPTZ NOT NULL,
                        settled_at TIMESTAMPTZ,
                        cancelled_at TIMESTAMPTZ
                    )
                    """
                ),
                .init("CREATE INDEX challenges_listed ON challenges (visibility, ends_at)"),
                .init("CREATE INDEX challenges_creator ON challenges (creator_id)"),
                .init(
                    """
                    CREATE TABLE challenge_participants (
                        challenge_id TEXT NOT NULL REFERENCES challenges (id) ON DELETE CASCADE,
                        user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                        state TEXT NOT NULL,
                        staked INTEGER NOT NULL DEFAULT 0,
                        invited_by TEXT,
                        updated_at TIMESTAMPTZ NOT NULL,
                        final_rank INTEGER,
                        final_value DOUBLE PRECISION,
                        won BOOLEAN NOT NULL DEFAULT FALSE,
                        payout INTEGER NOT NULL DEFAULT 0,
                        paid_at TIMESTAMPTZ,
                        PRIMARY KEY (challenge_id, user_id)
                    )
                    """
                ),
                .init("CREATE INDEX challenge_participants_user ON challenge_participants (user_id, state)"),
            ]
        ),
        Migration(
            version: 28,
            name: "challenge template usage",
            statements: [
                // Spec 002 §1's popularity: how many challenges each template made, counted as they are made.
                .init("CREATE TABLE challenge_template_uses (template_id TEXT PRIMARY KEY, uses INTEGER NOT NULL)"),
            ]
        ),
        Migration(
            version: 29,
            name: "challenge records and rivalries",
            statements: [
                // Spec 002 §3: each person's record (`ChallengeRecord` as JSON), and each pair of friends'
                // record against each other, both ways (`Rivalry`; its counts beside it to rank rivals by).
                .init(
                    """
                    CREATE TABLE challenge_records (
                        user_id TEXT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
                        record TEXT NOT NULL,
                        updated_at TIMESTAMPTZ NOT NULL
                    )
                    """
                ),
                .init(
                    """
                    CREATE TABLE rivalries (
                        user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                        rival_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                        meetings INTEGER NOT NULL,
                        wins INTEGER NOT NULL,
                        losses INTEGER NOT NULL,
                        record TEXT NOT NULL,
                        PRIMARY KEY (user_id, rival_id)
                    )
                    """
                ),
            ]
        ),
        Migration(
            version: 30,
            name: "challenges created and hosted",
            statements: [
                // Spec 002 §4's social badges: challenges a person made, and people who joined them (moved
                // by one statement each, so concurrent joins all count).
                .init("ALTER TABLE challenge_records ADD COLUMN created INTEGER NOT NULL DEFAULT 0"),
                .init("ALTER TABLE challenge_records ADD COLUMN hosted INTEGER NOT NULL DEFAULT 0"),
            ]
        ),
        Migration(
            version: 31,
            name: "analytics events",
            statements: [
                // Issue 24: the apps' events and the server's own, one row per user and key (a repeat is the
                // same event). `forward_pending` is set only while forwarding is configured, so the index of
                // what is still to forward stays empty on a server that forwards nothing.
                .init(
                    """
                    CREATE TABLE analytics_events (
                        user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                        event_key TEXT NOT NULL,
                        name TEXT NOT NULL,
                        source TEXT NOT NULL,
                        occurred_at TIMESTAMPTZ NOT NULL,
                        local_date TEXT NOT NULL,
                        properties TEXT NOT NULL,
                        received_at TIMESTAMPTZ NOT NULL,
                        forward_pending INTEGER,
                        PRIMARY KEY (user_id, event_key)
                    )
                    """
                ),
                .init("CREATE INDEX analytics_events_day ON analytics_events (local_date, name)"),
                .init("CREATE INDEX analytics_events_forward ON analytics_events (received_at) WHERE forward_pending = 1"),
            ]
        ),
        Migration(
            version: 32,
            name: "metric rollups",
            statements: [
                // Issue 24: each metric's numerator and denominator per local day, written by the daily
                // rollup; and the indexes by day that let the rollup read one day of goals, streak
                // periods and sign-ups.
                .init(
                    """
                    CREATE TABLE metric_rollups (
                        day TEXT NOT NULL,
                        metric TEXT NOT NULL,
                        numerator DOUBLE PRECISION NOT NULL,
                        denominator DOUBLE PRECISION NOT NULL,
                        computed_at TIMESTAMPTZ NOT NULL,
                        PRIMARY KEY (day, metric)
                    )
                    """
                ),
                .init("CREATE INDEX goals_span_period ON goals (span, period)"),
                .init("CREATE INDEX streak_entries_period ON streak_entries (period)"),
                .init("CREATE INDEX users_created ON users (created_at)"),
            ]
        ),
        Migration(
            version: 33,
            name: "experiments",
            statements: [
                // Issue 24: A/B tests of rule profiles. Assignment is a hash, so nothing is stored to look it
                // up; an exposure row records the first time a person's variant was applied to them, with the
                // local days their 7- and 30-day retention is read on.
                .init(
                    """
                    CREATE TABLE experiments (
                        id TEXT PRIMARY KEY,
                        name TEXT NOT NULL UNIQUE,
                        description TEXT NOT NULL,
                        variants TEXT NOT NULL,
                        state TEXT NOT NULL,
                        rollout_percent INTEGER NOT NULL,
                        created_at TIMESTAMPTZ NOT NULL,
                        started_at TIMESTAMPTZ,
                        stopped_at TIMESTAMPTZ,
                        updated_at TIMESTAMPTZ NOT NULL
                    )
                    """
                ),
                .init(
                    """
                    CREATE TABLE experiment_exposures (
                        experiment_id TEXT NOT NULL REFERENCES experiments (id) ON DELETE CASCADE,
                        user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                        variant TEXT NOT NULL,
                        exposed_at TIMESTAMPTZ NOT NULL,
                        local_date TEXT NOT NULL,
                        day7 TEXT NOT NULL,
                        day30 TEXT NOT NULL,
                        PRIMARY KEY (experiment_id, user_id)
                    )
                    """
                ),
                .init("CREATE INDEX experiment_exposures_user ON experiment_exposures (user_id)"),
            ]
        ),
        Migration(
            version: 34,
            name: "outbound webhooks",
            statements: [
                // Issue 24: app backends' subscriptions to the server's domain events, and one row per event
                // and endpoint — the delivery log — whose delivery is a job retried with backoff.
                .init(
                    """
                    CREATE TABLE webhook_endpoints (
                        id TEXT PRIMARY KEY,
                        url TEXT NOT NULL,
                        events TEXT NOT NULL,
                        description TEXT NOT NULL,
                        secret TEXT NOT NULL,
                        created_at TIMESTAMPTZ NOT NULL
                    )
                    """
                ),
                .init(
                    """
                    CREATE TABLE webhook_deliveries (
                        id TEXT PRIMARY KEY,
                        endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
                        event TEXT NOT NULL,
                        event_key TEXT NOT NULL,
                        user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                        payload TEXT NOT NULL,
                        status TEXT NOT NULL,
                        attempts INTEGER NOT NULL,
                        last_status INTEGER,
                        last_error TEXT,
                        created_at TIMESTAMPTZ NOT NULL,
                        delivered_at TIMESTAMPTZ,
                        UNIQUE (endpoint_id, user_id, event_key)
                    )
                    """
                ),
                .init("CREATE INDEX webhook_deliveries_log ON webhook_deliveries (endpoint_id, created_at)"),
                .init("CREATE INDEX webhook_deliveries_user ON webhook_deliveries (user_id)"),
            ]
        ),
        Migration(
            version: 35,
            name: "the console's delivery log",
            statements: [
                // Attempts of one outcome (the permanent failures an operator looks for), latest first: ids are
                // time-ordered (UUIDv7), so the primary key already orders them all.
                .init("CREATE INDEX delivery_attempts_outcome ON delivery_attempts (outcome, id)"),
            ]
        ),
        Migration(
            version: 36,
            name: "activity edits",
            statements: [
                // An edit replaces the event's content in place; the latest edit made on any device wins.
                .init("ALTER TABLE activity_events ADD COLUMN revision INTEGER NOT NULL DEFAULT 0"),
                .init("ALTER TABLE activity_events ADD COLUMN modified_at TIMESTAMPTZ"),
            ]
        ),
        Migration(
            version: 37,
            name: "an exact key for each stint in a circle",
            statements: [
                // A person's stints in a circle, numbered from 0: with the circle, an exact key to page by (an
                // instant read back through a Double is not the value stored, so paging by `joined_at` could
                // read the same row forever).
                .init("ALTER TABLE circle_members ADD COLUMN stint INTEGER NOT NULL DEFAULT 0"),
                .init(
                    """
                    UPDATE circle_members SET stint = (
                        SELECT COUNT(*) FROM circle_members e WHERE e.circle_id = circle_members.circle_id
                            AND e.user_id = circle_members.user_id AND e.joined_at < circle_members.joined_at)
                    """
                ),
            ]
        ),
        Migration(
            version: 38,
            name: "app events by arrival, for their quota and retention",
            statements: [
                .init("CREATE INDEX analytics_events_user_received ON analytics_events (user_id, received_at)"),
                .init("CREATE INDEX analytics_events_received ON analytics_events (received_at) WHERE source = 'app'"),
            ]
        ),
        .init(
            version: 39,
            name: "a web sign-in's nonce works once",
            statements: [
                // The web flow keeps its nonce in the browser's cookie; the server remembers which were used, until
                // the token that carried one has expired, so a captured callback cannot sign in again.
                .init("CREATE TABLE used_sign_in_nonces (nonce_hash TEXT PRIMARY KEY, expires_at TIMESTAMPTZ NOT NULL)"),
                .init("CREATE INDEX used_sign_in_nonces_expiry ON used_sign_in_nonces (expires_at)"),
            ]
        ),
        .init(
            version: 40,
            name: "the friends' feed as an index per reader",
            statements: [
                // A row per workout and per person whose feed it may enter (its author and the author's friends),
                // written when the workout is recorded (the author's own) and by a job after (the friends'), and
                // when two become friends. An index, never a copy: who may see it is decided when it is read.
                .init(
                    """
                    CREATE TABLE feed_entries (
                        reader_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                        activity_id TEXT NOT NULL REFERENCES activity_events (id) ON DELETE CASCADE,
                        author_id TEXT NOT NULL,
                        occurred_at TIMESTAMPTZ NOT NULL,
                        workout_type TEXT,
                        PRIMARY KEY (reader_id, activity_id)
                    )
                    """
                ),
                .init("CREATE INDEX feed_entries_page ON feed_entries (reader_id, occurred_at, activity_id)"),
                .init("CREATE INDEX feed_entries_type_page ON feed_entries (reader_id, workout_type, occurred_at, activity_id)"),
                .init("CREATE INDEX feed_entries_author ON feed_entries (author_id, reader_id)"),
                .init("CREATE INDEX feed_entries_activity ON feed_entries (activity_id)"),
                .init(
                    """
                    INSERT INTO feed_entries (reader_id, activity_id, author_id, occurred_at, workout_type)
                    SELECT user_id, id, user_id, occurred_at, workout_type FROM activity_events WHERE kind = 'workout'
                    """
                ),
                .init(
                    """
                    INSERT INTO feed_entries (reader_id, activity_id, author_id, occurred_at, workout_type)
                    SELECT f.user_id, a.id, a.user_id, a.occurred_at, a.workout_type
                    FROM friendships f JOIN activity_events a ON a.user_id = f.friend_id AND a.kind = 'workout'
                    """
                ),
            ]
        ),
        Migration(
            version: 41,
            name: "people search entries carry what a result shows",
            statements: [
                // A search reads its entries and nothing else (issue 42: the join to `users` was half of a search's
                // time at 1,000,000 accounts). `indexName` writes these from the account's row in the same
                // transaction as every change of it. A disabled account keeps its entries (the console finds it).
                // SQLite: rebuilt WITHOUT ROWID, so that its primary key holds the rows and a search reads one
                // b-tree (with a rowid, every entry was a second lookup).
                .init(
                    sqlite: """
                        CREATE TABLE user_search_terms_shown (
                            whole BOOLEAN NOT NULL,
                            term TEXT NOT NULL,
                            user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                            display_name TEXT NOT NULL,
                            photo_key TEXT,
                            visibility_photo TEXT NOT NULL,
                            disabled BOOLEAN NOT NULL,
                            PRIMARY KEY (whole, term, user_id)
                        ) WITHOUT ROWID
                        """,
                    postgres: """
                        ALTER TABLE user_search_terms ADD COLUMN display_name TEXT NOT NULL DEFAULT '', ADD COLUMN photo_key TEXT,
                            ADD COLUMN visibility_photo TEXT NOT NULL DEFAULT 'only_me', ADD COLUMN disabled BOOLEAN NOT NULL DEFAULT FALSE
                        """
                ),
                .init(
                    sqlite: """
                        INSERT INTO user_search_terms_shown
                        SELECT t.whole, t.term, t.user_id, u.display_name, u.photo_key, u.visibility_photo, u.disabled_at IS NOT NULL
                        FROM user_search_terms t JOIN users u ON u.id = t.user_id
                        """,
                    postgres: """
                        UPDATE user_search_terms t SET display_name = u.display_name, photo_key = u.photo_key,
                            visibility_photo = u.visibility_photo, disabled = u.disabled_at IS NOT NULL
                        FROM users u WHERE u.id = t.user_id
                        """
                ),
                // PostgreSQL: the primary key's index includes what a result shows, so a search is an index-only scan.
                .init(
                    sqlite: "DROP TABLE user_search_terms",
                    postgres: """
                        ALTER TABLE user_search_terms DROP CONSTRAINT user_search_terms_pkey,
                            ADD PRIMARY KEY (whole, term, user_id) INCLUDE (display_name, photo_key, visibility_photo, disabled)
                        """
                ),
                .init(sqlite: "ALTER TABLE user_search_terms_shown RENAME TO user_search_terms", postgres: nil),
                .init(sqlite: "CREATE INDEX user_search_terms_user ON user_search_terms (user_id)", postgres: nil),
            ],
            // Accounts made before the index (version 18): their names are indexed in the same transaction.
            backfill: { tx, progress in try await tx.indexEveryName(progress: progress) }
        ),
    ]

    private static let pointsLedgerColumns = """
        id TEXT NOT NULL UNIQUE,
        user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        local_date TEXT NOT NULL,
        amount INTEGER NOT NULL,
        reason TEXT NOT NULL,
        source_key TEXT NOT NULL,
        source_event_id TEXT,
        multiplier DOUBLE PRECISION,
        counted INTEGER NOT NULL,
        excess INTEGER NOT NULL,
        detail TEXT NOT NULL,
        created_at TIMESTAMPTZ NOT NULL,
        UNIQUE (user_id, source_key)
        """

    static var latestVersion: Int { Self.all.last?.version ?? 0 }
}
