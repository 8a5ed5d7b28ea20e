/** Schema migrations, applied in order; `PRAGMA user_version` records how many ran. */
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE servers (
     id TEXT PRIMARY KEY,
     config_hash TEXT NOT NULL,
     status TEXT NOT NULL DEFAULT 'never' CHECK (status IN ('never','discovering','success','failed')),
     last_discovery_at TEXT,
     last_error TEXT,
     tool_count INTEGER NOT NULL DEFAULT 0,
     protocol_era TEXT,
     server_name TEXT,
     server_version TEXT,
     instructions TEXT,
     warnings TEXT NOT NULL DEFAULT '[]'
   ) STRICT;
   CREATE TABLE tools (
     key TEXT PRIMARY KEY,
     server_id TEXT NOT NULL REFERENCES servers(id) ON DELETE CASCADE,
     name TEXT NOT NULL,
     title TEXT,
     description TEXT,
     input_schema TEXT,
     output_schema TEXT,
     annotations TEXT,
     meta TEXT,
     execution TEXT,
     icons TEXT,
     schema_truncated_from INTEGER,
     content_hash TEXT NOT NULL,
     first_seen_at TEXT NOT NULL,
     last_seen_at TEXT NOT NULL
   ) STRICT;
   CREATE INDEX tools_by_server ON tools(server_id, name);`,
  // 2: the server's DiscoverResult (2026-07-28 era), so a reconnect skips the era probe.
  `ALTER TABLE servers ADD COLUMN discover_result TEXT;`,
];

/** The schema version this build writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;
