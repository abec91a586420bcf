extension Migrations {
    static let v027 = Migration(
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
            .init(
                "CREATE INDEX board_scores_order ON board_scores (owner_id, period, period_start, value DESC, reached_ms, user_id)"
            ),
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
    )
}
