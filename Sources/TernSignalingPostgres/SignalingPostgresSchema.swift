/// The tables of the PostgreSQL mode, created and migrated by the server itself: each entry of
/// `migrations` (its statements one by one: the extended protocol takes one per query) runs once,
/// in order, in one transaction with the version bump, under an advisory lock (several nodes
/// starting at once migrate once).
enum SignalingPostgresSchema {
    static let migrations: [[String]] = [
        // 1: the shared log of router inputs, its head (one row, its lock orders the appends),
        // the nodes with their heartbeats and how far each applied the log, router snapshots.
        [
            """
            CREATE TABLE tern_signal_log (
                seq bigint PRIMARY KEY,
                node integer NOT NULL,
                at bigint NOT NULL,
                input text NOT NULL
            )
            """,
            """
            CREATE TABLE tern_signal_log_head (
                id boolean PRIMARY KEY DEFAULT true CHECK (id),
                seq bigint NOT NULL
            )
            """,
            """
            INSERT INTO tern_signal_log_head (id, seq) VALUES (true, 0)
            """,
            """
            CREATE SEQUENCE tern_signal_node_ids MINVALUE 1 MAXVALUE 65535 CYCLE
            """,
            """
            CREATE TABLE tern_signal_nodes (
                node integer PRIMARY KEY,
                started_at timestamptz NOT NULL DEFAULT now(),
                heartbeat_at timestamptz NOT NULL DEFAULT now(),
                applied_seq bigint NOT NULL DEFAULT 0,
                down boolean NOT NULL DEFAULT false
            )
            """,
            """
            CREATE TABLE tern_signal_snapshots (
                seq bigint PRIMARY KEY,
                router text NOT NULL,
                taken_at timestamptz NOT NULL DEFAULT now()
            )
            """,
        ],
        // 2: each input's origin (its node's own number for it), unique per node, so a batch whose
        // commit succeeded but whose reply was lost is not appended twice when retried.
        [
            "ALTER TABLE tern_signal_log ADD COLUMN origin bigint",
            "CREATE UNIQUE INDEX tern_signal_log_origin ON tern_signal_log (node, origin)",
        ],
    ]
}
