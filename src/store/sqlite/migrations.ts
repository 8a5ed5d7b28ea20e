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
  // 3: embedding vectors for tool search, keyed by tools.content_hash and the embedder's model id
  // (no foreign key: a vector outlives its tool until pruned, so a tool that comes back is free).
  // The index serves every per-model query (count, prune, the dimension check) without a table scan.
  `CREATE TABLE tool_vectors (
     content_hash TEXT NOT NULL,
     model_id TEXT NOT NULL,
     dimension INTEGER NOT NULL CHECK (dimension > 0),
     vector BLOB NOT NULL CHECK (length(vector) = 4 * dimension),
     created_at TEXT NOT NULL,
     PRIMARY KEY (content_hash, model_id)
   ) STRICT;
   CREATE INDEX tool_vectors_by_model ON tool_vectors(model_id, dimension);`,
  // 4: a fast cold search. search_snapshots holds the lexical index's analysis of the catalog
  // (a cache keyed by a hash of everything it depends on, safe to delete at any time); param_names
  // keeps each input schema's top-level property names (a JSON array), so search reads no schema.
  `CREATE TABLE search_snapshots (
     key TEXT PRIMARY KEY,
     data BLOB NOT NULL,
     created_at TEXT NOT NULL
   ) STRICT;
   ALTER TABLE tools ADD COLUMN param_names TEXT NOT NULL DEFAULT '[]';
   UPDATE tools SET param_names = (
     SELECT json_group_array(p.key) FROM json_each(tools.input_schema, '$.properties') p
     WHERE json_type(tools.input_schema, '$.properties') = 'object');`,
  // 5: usage (issue 14). One row per gateway event; today only `call`. `at` is unix epoch
  // milliseconds (an integer: cheap to compare, prune and decay). `outcome` is 'ok', 'tool_error'
  // or a CarteError code, unchecked so new codes need no migration; `kind` is unchecked for the same
  // reason (ACTIVITY_KINDS in types.ts). The trust issue adds its columns (request id, token
  // id, project, argument digest) with ALTER TABLE ADD COLUMN, which rewrites nothing in SQLite.
  // One index, on time: pruning and time ranges. An index by tool was measured and left out: it
  // makes the hot-list query 2-3x faster but a write's mean cost 1.6-2.1x (its inserts land on
  // random pages, so WAL checkpoints copy more of them); writes are every call, the usage queries
  // rare (docs/benchmarks-store.md, "Activity write").
  `CREATE TABLE activity (
     id INTEGER PRIMARY KEY,
     at INTEGER NOT NULL,
     kind TEXT NOT NULL,
     key TEXT,
     server TEXT,
     outcome TEXT NOT NULL,
     duration_ms REAL NOT NULL CHECK (duration_ms >= 0),
     result_bytes INTEGER CHECK (result_bytes >= 0),
     CHECK (kind <> 'call' OR (key IS NOT NULL AND server IS NOT NULL))
   ) STRICT;
   CREATE INDEX activity_by_time ON activity(at);`,
  // 6: the menu's stored state (issue 14, items 2 and 7). tools.category and tools.tags (a JSON
  // array) are the automatic categoriser's answer, NULL until it has run for the row: a sync
  // rewrites a server's whole set whenever a tool is added, changed or removed (server evidence
  // moves every tool's score), and the gateway back-fills NULL rows at start, so a store from
  // before this migration gets its categories on first open. Rules override them at read time and
  // are never stored. A change to the category ids or the method ships with a migration that sets
  // category back to NULL. tokens_sent and tokens_listing are set only on `session` rows: what a
  // downstream session was sent against what the full listing of its visible tools would cost.
  `ALTER TABLE tools ADD COLUMN category TEXT;
   ALTER TABLE tools ADD COLUMN tags TEXT;
   ALTER TABLE activity ADD COLUMN tokens_sent INTEGER CHECK (tokens_sent >= 0);
   ALTER TABLE activity ADD COLUMN tokens_listing INTEGER CHECK (tokens_listing >= 0);`,
  // 7: trust (issue 15). `tokens`: bearer tokens by public id; only a sha256 of the secret is
  // stored, times are unix epoch ms, `scopes` a JSON array. The activity table gains the audit
  // columns (request id, token id, project, argument digest, redacted arguments, a short detail
  // such as a search query's digest or an admin action's subject), so usage and audit stay one
  // table. `proposals`: servers proposed by `carte register` (or an agent), as written (JSON),
  // with their problems; nothing pending is ever started. `tool_pins`: each tool's hash of name,
  // description, input schema and annotations after its server's first successful discovery,
  // with that content (JSON) for the diff a drift shows. `quarantine`: tools held back (a scanner
  // finding or a drift) until a person approves them.
  `CREATE TABLE tokens (
     id TEXT PRIMARY KEY,
     name TEXT,
     project TEXT NOT NULL,
     scopes TEXT NOT NULL,
     hash TEXT NOT NULL UNIQUE,
     created_at INTEGER NOT NULL,
     expires_at INTEGER,
     last_used_at INTEGER,
     revoked_at INTEGER
   ) STRICT;
   ALTER TABLE activity ADD COLUMN request_id TEXT;
   ALTER TABLE activity ADD COLUMN token_id TEXT;
   ALTER TABLE activity ADD COLUMN project TEXT;
   ALTER TABLE activity ADD COLUMN args_digest TEXT;
   ALTER TABLE activity ADD COLUMN args TEXT;
   ALTER TABLE activity ADD COLUMN detail TEXT;
   CREATE TABLE proposals (
     id TEXT PRIMARY KEY,
     server_id TEXT NOT NULL,
     config TEXT NOT NULL,
     source TEXT NOT NULL,
     status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'rejected')),
     problems TEXT NOT NULL DEFAULT '[]',
     created_at INTEGER NOT NULL,
     decided_at INTEGER,
     decided_by TEXT
   ) STRICT;
   CREATE TABLE tool_pins (
     key TEXT PRIMARY KEY,
     server_id TEXT NOT NULL,
     pin_hash TEXT NOT NULL,
     pinned_at INTEGER NOT NULL,
     content TEXT NOT NULL
   ) STRICT;
   CREATE INDEX tool_pins_by_server ON tool_pins(server_id);
   CREATE TABLE quarantine (
     key TEXT PRIMARY KEY,
     server_id TEXT NOT NULL,
     kind TEXT NOT NULL CHECK (kind IN ('flagged', 'drift')),
     reason TEXT NOT NULL,
     findings TEXT NOT NULL DEFAULT '[]',
     since INTEGER NOT NULL
   ) STRICT;`,
  // 8: team sign-in (issue 31). A call by an identity provider's access token records who it
  // names: its subject (`sub`) and the client it was issued to (`azp` or `client_id`). NULL for
  // Carte's own tokens and the local user. No index: `carte audit --subject` reads a time range.
  `ALTER TABLE activity ADD COLUMN subject TEXT;
   ALTER TABLE activity ADD COLUMN client TEXT;`,
  // 9: tools as code (issue 43). A run_code script's own row has kind `code`; each tool call it
  // makes is a `call` row whose parent_id is that row's id (NULL for every other row). No index:
  // `carte audit` reads a time range, and a run's calls sit just after it.
  `ALTER TABLE activity ADD COLUMN parent_id INTEGER;`,
  // 10: upstream sign-in (issue 41). A server's status may be `needs_sign_in` (its HTTP endpoint
  // answered 401): a CHECK changes only by rebuilding the table, and dropping `servers` would
  // cascade to its tools (foreign keys are on and cannot be turned off inside the migration's
  // transaction), so the tools are kept aside and put back. `upstream_auth` holds each server's
  // OAuth record sealed with AES-256-GCM under a key kept outside the database (store/secret-box.ts);
  // its clear columns are what `carte auth status` shows, never a secret.
  `CREATE TABLE servers_next (
     id TEXT PRIMARY KEY,
     config_hash TEXT NOT NULL,
     status TEXT NOT NULL DEFAULT 'never'
       CHECK (status IN ('never','discovering','success','failed','needs_sign_in')),
     last_discovery_at TEXT,
     last_error TEXT,
     tool_count INTEGER NOT NULL DEFAULT 0,
     protocol_era TEXT,
     server_name TEXT,
     server_version TEXT,
     instructions TEXT,
     warnings TEXT NOT NULL DEFAULT '[]',
     discover_result TEXT
   ) STRICT;
   INSERT INTO servers_next (id, config_hash, status, last_discovery_at, last_error, tool_count,
       protocol_era, server_name, server_version, instructions, warnings, discover_result)
     SELECT id, config_hash, status, last_discovery_at, last_error, tool_count,
       protocol_era, server_name, server_version, instructions, warnings, discover_result FROM servers;
   CREATE TEMP TABLE tools_kept AS SELECT * FROM tools;
   DROP TABLE servers;
   ALTER TABLE servers_next RENAME TO servers;
   INSERT INTO tools SELECT * FROM tools_kept;
   DROP TABLE tools_kept;
   CREATE TABLE upstream_auth (
     server_id TEXT PRIMARY KEY,
     sealed TEXT NOT NULL,
     expires_at INTEGER,
     scope TEXT,
     refreshable INTEGER NOT NULL DEFAULT 0,
     updated_at INTEGER NOT NULL
   ) STRICT;`,
  // 11: no row left `started` (issue 40, item 4). `activity.owner` names the process (SQLite) or
  // replica (PostgreSQL) that wrote a call's `started` row; `leases` holds one row per owner that
  // has begun a call and not closed. An owner found dead (SQLite: its lock file is free; PostgreSQL:
  // its lease was not renewed in time) has its `started` rows set to `interrupted` and its lease
  // deleted (store/sqlite/leases.ts, store/pg/leases.ts). Rows from before this migration have no
  // owner and are left as they are. Rate limits (issue 40, item 5): `tokens.rate_per_minute` is a
  // token's own limit (NULL: its project's default, or none). On SQLite the counters live in the
  // serving process's memory (one daemon per data dir); PostgreSQL shares them in a table.
  `ALTER TABLE tokens ADD COLUMN rate_per_minute INTEGER CHECK (rate_per_minute > 0);
   ALTER TABLE activity ADD COLUMN owner TEXT;
   CREATE TABLE leases (
     owner TEXT PRIMARY KEY,
     host TEXT NOT NULL,
     pid INTEGER NOT NULL,
     started_at INTEGER NOT NULL,
     renewed_at INTEGER NOT NULL
   ) STRICT;`,
  // 12. Sandboxed registration (issue 42): the network hosts an approval granted (a JSON array;
  // NULL while pending, when rejected, or for a remote server).
  `ALTER TABLE proposals ADD COLUMN network_grant TEXT`,
  // 13. Per-user upstream identities (issue 41, "Teams"): a sign-in belongs to a server and a
  // subject (an identity provider's `sub`; '' is the deployment's shared sign-in, which every row
  // from before this migration is). A primary key changes only by rebuilding the table.
  `CREATE TABLE upstream_auth_next (
     server_id TEXT NOT NULL,
     subject TEXT NOT NULL DEFAULT '',
     sealed TEXT NOT NULL,
     expires_at INTEGER,
     scope TEXT,
     refreshable INTEGER NOT NULL DEFAULT 0,
     updated_at INTEGER NOT NULL,
     PRIMARY KEY (server_id, subject)
   ) STRICT;
   INSERT INTO upstream_auth_next (server_id, sealed, expires_at, scope, refreshable, updated_at)
     SELECT server_id, sealed, expires_at, scope, refreshable, updated_at FROM upstream_auth;
   DROP TABLE upstream_auth;
   ALTER TABLE upstream_auth_next RENAME TO upstream_auth;`,
];

/** The schema version this build writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;
