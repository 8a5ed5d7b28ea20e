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
  /** The tool as a run_code script calls it: a TypeScript `call` overload. */
  signature?: string;
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
  /** A remote server's sign-in: its state for everyone; scopes and expiry for admins. Never a token. */
  signIn?: SignInInfo;
  /** A stdio server's confinement: null when unsandboxed; absent for remote servers. */
  sandbox?: SandboxInfo | null;
}
export interface SignInInfo {
  state: 'signed_in' | 'expired' | 'needs_sign_in' | 'not_needed' | 'per_user';
  scope?: string | null;
  expiresAt?: string | null;
  refreshable?: boolean;
  /** per_user, admins only: how many people have linked their account (never whose). */
  linked?: number;
  /** per_user: the caller's own link (never anyone else's). */
  you?: OwnLink;
}
export interface OwnLink {
  state: 'linked' | 'expired' | 'not_linked' | 'no_subject';
  scope: string | null;
  expiresAt: string | null;
  refreshable: boolean;
}
export interface StartedSignIn {
  server: string;
  state: 'waiting' | 'signed_in';
  authorizationUrl?: string;
}
export interface SandboxInfo {
  network: string[];
  memoryMb?: number;
  maxProcesses?: number;
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
  /** The hosts it asks to reach; a stdio server runs sandboxed with only those the approval grants. */
  network?: string[];
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

export interface Bucket {
  at: number;
  calls: number;
  errors: number;
}
export interface ToolUsage {
  key: string;
  calls: number;
  errors: number;
  errorRate: number;
  p50Ms: number;
  lastUsedAt: string;
}
export interface ServerUsage {
  server: string;
  calls: number;
  errors: number;
  errorRate: number;
  p50Ms: number;
  p95Ms: number;
}
export interface Activity {
  range: 'hour' | 'week';
  project: string;
  bucketMs: number;
  series: Bucket[];
  servers: ServerUsage[];
  sessions: number;
  tokensSent: number;
  tokensListing: number;
  tokensSaved: number;
  savedRatio: number | null;
  calls: number;
  errors: number;
  topTools: ToolUsage[];
}
export interface AuditRow {
  id: number;
  at: string;
  kind: string;
  tokenId: string | null;
  project: string | null;
  key: string | null;
  outcome: string;
  durationMs: number;
  detail: string | null;
  /** The identity provider token's subject and client (null for Carte's own tokens). */
  subject: string | null;
  client: string | null;
}
export interface TokenInfo {
  id: string;
  name: string | null;
  project: string;
  scopes: string[];
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
  /** Its own requests per minute, or null. */
  ratePerMinute: number | null;
  /** What applies to it now: its own, else its project's (or http.rate); null: no limit. */
  effectiveRatePerMinute: number | null;
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
  const res = await request(method, path, body);
  return (await res.json()) as T;
}

/** GETs a file (the audit export) with the stored token; resolves to its bytes or throws an ApiError. */
export async function apiBlob(path: string): Promise<Blob> {
  return (await request('GET', path)).blob();
}

/** Sends one request; a non-2xx answer throws an ApiError with the server's message. */
async function request(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Response> {
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
  if (res.ok) return res;
  const data = (await res.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null;
  const e = data?.error;
  throw new ApiError(res.status, e?.code ?? 'http', e?.message ?? `HTTP ${res.status} from ${path}`);
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
