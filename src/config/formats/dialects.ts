import { RemoteServerObject, StdioServerObject } from '../schema/schema.js';

/** What Carte reads from one client's file beyond its own server keys. */
export interface Dialect {
  /** The key that holds the servers by id. */
  section: 'mcpServers' | 'servers';
  /** Top-level keys read (or knowingly skipped) without a warning. */
  topKeys: readonly string[];
  /** Other clients' names for Carte's keys, as written -> Carte's key. */
  aliases: Readonly<Record<string, 'timeoutMs' | 'url'>>;
  /** Reads `disabled` (the opposite of `enabled`). */
  disabledKey: boolean;
  /** Reads VS Code's `envFile` into `env`. */
  envFile: boolean;
}

/**
 * The two client formats. `mcpServers` files are shared by Claude Desktop, Cursor, Windsurf,
 * Cline and Gemini CLI, so their keys for the same things are read too: Gemini CLI's `timeout`
 * (ms) and `httpUrl`, Windsurf's `serverUrl`. docs/config.md cites each client's docs.
 */
export const DIALECTS = {
  claude: {
    section: 'mcpServers',
    topKeys: ['$schema', 'mcpServers'],
    aliases: { timeout: 'timeoutMs', httpUrl: 'url', serverUrl: 'url' },
    disabledKey: true,
    envFile: false,
  },
  vscode: {
    section: 'servers',
    topKeys: ['$schema', 'servers', 'inputs'],
    aliases: {},
    disabledKey: false,
    envFile: true,
  },
} as const satisfies Record<'claude' | 'vscode', Dialect>;

/**
 * Carte's own per-server keys, read from client files as they are and validated by Carte's
 * schema. `transport` is left out: these files say it with `type`.
 */
export const CARTE_SERVER_KEYS: readonly string[] = [
  ...new Set([...Object.keys(StdioServerObject.shape), ...Object.keys(RemoteServerObject.shape)]),
].filter((k) => k !== 'transport');

/** Every per-server key a dialect reads, for "did you mean" and the unknown-key warning. */
export function knownServerKeys(dialect: Dialect): string[] {
  return [
    ...CARTE_SERVER_KEYS,
    'type',
    ...Object.keys(dialect.aliases),
    ...(dialect.disabledKey ? ['disabled'] : []),
    ...(dialect.envFile ? ['envFile'] : []),
  ];
}
