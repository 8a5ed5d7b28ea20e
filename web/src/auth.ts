/**
 * The bearer token: from the one-time login link (`/#login=<code>`) or pasted by the user, kept
 * in sessionStorage (gone with the tab) and sent as a header, so there are no cookies to forge.
 */
const KEY = 'carte.token';

/** The stored token, if any. */
export function getToken(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

/** Stores (or with null, forgets) the token. */
export function setToken(token: string | null): void {
  if (token === null) sessionStorage.removeItem(KEY);
  else sessionStorage.setItem(KEY, token);
}

/** The login code in the URL fragment, if the page was opened from a login link. */
export function loginCode(hash: string): string | null {
  const m = /^#login=([^&]+)$/.exec(hash);
  return m ? decodeURIComponent(m[1] ?? '') : null;
}
