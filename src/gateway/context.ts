/**
 * Who is asking. Every gateway operation takes one; today the only caller is the local user with
 * every right. Projects, tokens and scopes (the trust issue) narrow it later.
 */
export interface CallerContext {
  projectId: string;
  scopes: readonly string[];
}

/** The local user: default project, all scopes. */
export const LOCAL_CALLER: CallerContext = Object.freeze({
  projectId: 'default',
  scopes: Object.freeze(['*']),
});
