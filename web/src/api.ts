/** The REST API under /api/v1 (docs/http.md), as the page uses it. */
import { getToken } from './auth.js';

export interface Me {
  project: string;
  scopes: string[];
}
export interface ToolSummary {
  key: string;
  title?: string;
  summary: string;
  server?: string;
  category?: string;
  pinned?: boolean;
}
export interface Category {
  id: string;
  label: string;
  toolCount: number;
  serverCount: number;
  examples: string[];
}
export interface ToolDetail {
  key: string;
  title?: string;
  description?: string;
  inputSchema?: unknown;
  outputSchema?: unknown;
  annotations?: Record<string, unknown>;
  class?: string;
  category?: string;
  tags?: string[];
}
export interface CallResult {
  isError?: boolean;
  content?: { type: string; text?: string; mimeType?: string; [k: string]: unknown }[];
  structuredContent?: unknown;
}
export interface ServerInfo {
  id: string;
  description?: string;
  toolCount: number;
  usable?: boolean;
  reason?: string;
  /** This and below: admin only. */
  state?: string;
  lastDiscovery?: string | null;
  lastError?: string | null;
}
export interface RefreshResult {
  status: string;
  toolCount: number;
  error?: string;
}
export interface Proposal {
  id: string;
  server: string;
  source: string;
  /** What would run or be reached, secrets masked. */
  target?: string;
  createdAt: string;
  problems?: (string | { path: string; message: string })[];
}
export interface Quarantined {
  key: string;
  reason: string;
  kind?: string;
  since?: string;
  diff?: unknown;
}
export interface ApproveResult {
  server: string;
  discovery?: { status: string; toolCount: number; error?: string };
}

/** A failed request: the server's `{error: {code, message}}`, or status 0 when it could not be reached. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Calls the API with the stored token; resolves to the JSON body or throws an ApiError. */
export async function api<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = getToken();
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(`/api/v1${path}`, {
      method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  } catch (err) {
    throw new ApiError(0, 'network', `cannot reach Carte (${String(err)})`);
  }
  const data = (await res.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null;
  if (!res.ok) {
    const e = data?.error;
    throw new ApiError(res.status, e?.code ?? 'http', e?.message ?? `HTTP ${res.status} from ${path}`);
  }
  return data as T;
}

/** `server/tool` as the two encoded path segments the tool routes take. */
export function toolPath(key: string): string {
  const slash = key.indexOf('/');
  return `${encodeURIComponent(key.slice(0, slash))}/${encodeURIComponent(key.slice(slash + 1))}`;
}

/** Query string from the defined values. */
export function query(params: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}
