/**
 * Who is asking. Every gateway operation takes one. The local user (stdio, the CLI) has every
 * right in the project it serves; a bearer token (the HTTP face) resolves to its project and
 * scopes (docs/security.md). A client's `_meta` never changes it.
 */
export interface CallerContext {
  projectId: string;
  /** `search` (search, browse, describe), `call` (plus call_tool), `admin` (plus approvals, audit), or `*`. */
  scopes: readonly string[];
  /** The token's public id (never the token), for the audit log; absent for the local user. */
  tokenId?: string;
  /** The request's id, for the audit log, when the face has one. */
  requestId?: string;
  /** An identity provider's access token (issue 31): its `sub` claim, for the audit log. */
  subject?: string;
  /** That token's client (`azp` or `client_id`), for the audit log. */
  client?: string;
  /** The token's own request limit per minute (`carte token create --rate`); absent: its project's default. */
  ratePerMinute?: number;
}

/** Who a caller is in one word, for records (approvals, proposals): `token:ID`, `oidc:SUB`, or undefined for the local user. */
export function callerLabel(ctx: CallerContext): string | undefined {
  if (ctx.tokenId !== undefined) return `token:${ctx.tokenId}`;
  return ctx.subject === undefined ? undefined : `oidc:${ctx.subject}`;
}

/** The local user: default project, all scopes. */
export const LOCAL_CALLER: CallerContext = Object.freeze({
  projectId: 'default',
  scopes: Object.freeze(['*']),
});

/** The local user serving one project (`carte serve --project P`). */
export function localCaller(projectId: string): CallerContext {
  return Object.freeze({ projectId, scopes: Object.freeze(['*']) });
}
