import { posix, win32 } from 'node:path';
import { CarteError } from '../../errors.js';
import type { UserPlace } from '../load/paths.js';

/** The clients `carte install` knows, by the name its `--client` takes. */
export const CLIENT_IDS = [
  'claude-desktop',
  'claude-code',
  'cursor',
  'vscode',
  'windsurf',
  'gemini-cli',
] as const;
export type ClientId = (typeof CLIENT_IDS)[number];

/** One client's user-level MCP file: where it is and how it holds servers (docs/clients.md cites each). */
export interface ClientSpec {
  id: ClientId;
  name: string;
  /** The top-level key that holds the servers by id. */
  section: 'mcpServers' | 'servers';
  /** Which of Carte's readers understands its server entries. */
  dialect: 'claude' | 'vscode';
  /** The user-level file on this platform. */
  file(place: UserPlace): string;
}

/** A path under the home directory, with the platform's separators. */
function inHome(place: UserPlace, ...parts: string[]): string {
  return (place.platform === 'win32' ? win32 : posix).join(place.home, ...parts);
}

/**
 * Electron's per-user app data folder (app.getPath('appData')), where Claude Desktop and VS Code
 * keep their files: %APPDATA% on Windows, ~/Library/Application Support on macOS, else
 * $XDG_CONFIG_HOME or ~/.config.
 */
function appData(place: UserPlace, ...parts: string[]): string {
  const { env, platform } = place;
  if (platform === 'win32') {
    const roaming = env.APPDATA ? env.APPDATA : win32.join(place.home, 'AppData', 'Roaming');
    return win32.join(roaming, ...parts);
  }
  if (platform === 'darwin') return posix.join(place.home, 'Library', 'Application Support', ...parts);
  const xdg = env.XDG_CONFIG_HOME;
  const base = xdg && posix.isAbsolute(xdg) ? xdg : posix.join(place.home, '.config');
  return posix.join(base, ...parts);
}

export const CLIENTS: Readonly<Record<ClientId, ClientSpec>> = {
  'claude-desktop': {
    id: 'claude-desktop',
    name: 'Claude Desktop',
    section: 'mcpServers',
    dialect: 'claude',
    file: (p) => appData(p, 'Claude', 'claude_desktop_config.json'),
  },
  'claude-code': {
    id: 'claude-code',
    name: 'Claude Code',
    section: 'mcpServers',
    dialect: 'claude',
    file: (p) => inHome(p, '.claude.json'),
  },
  cursor: {
    id: 'cursor',
    name: 'Cursor',
    section: 'mcpServers',
    dialect: 'claude',
    file: (p) => inHome(p, '.cursor', 'mcp.json'),
  },
  vscode: {
    id: 'vscode',
    name: 'VS Code',
    section: 'servers',
    dialect: 'vscode',
    file: (p) => appData(p, 'Code', 'User', 'mcp.json'),
  },
  windsurf: {
    id: 'windsurf',
    name: 'Windsurf',
    section: 'mcpServers',
    dialect: 'claude',
    file: (p) => inHome(p, '.codeium', 'windsurf', 'mcp_config.json'),
  },
  'gemini-cli': {
    id: 'gemini-cli',
    name: 'Gemini CLI',
    section: 'mcpServers',
    dialect: 'claude',
    file: (p) => inHome(p, '.gemini', 'settings.json'),
  },
};

/** The client named `name`, or a CarteError 'bad_input' listing the known ones. */
export function clientSpec(name: string | undefined): ClientSpec {
  if (name !== undefined && Object.hasOwn(CLIENTS, name)) return CLIENTS[name as ClientId];
  const given = name === undefined ? 'no --client was given' : `unknown client ${JSON.stringify(name)}`;
  throw new CarteError('bad_input', `${given}; --client takes one of ${CLIENT_IDS.join(', ')}`);
}

/** The `carte` entry as the client's file writes it: VS Code's entries carry `type`. */
export function carteEntry(
  spec: ClientSpec,
  command: { command: string; args: string[] },
): Record<string, unknown> {
  return spec.dialect === 'vscode' ? { type: 'stdio', ...command } : { ...command };
}
