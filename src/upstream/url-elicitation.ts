// An upstream's -32042 error (MCP 2025-11-25, "URL elicitation required"): the call cannot go on
// until the person opens the pages it names (`data.elicitations`, each `mode: "url"` with an
// `elicitationId`, a `url` and a `message`). The gateway keeps them, checked, as the error's
// `details.elicitations`: the MCP face relays them to a client that declared URL elicitation, and
// `carte call` prints them. What the upstream wrote is untrusted: only http(s) URLs are kept, and
// the texts are cut and stripped of control characters.
import { CarteError } from '../errors.js';

/** The JSON-RPC code of "URL elicitation required". */
export const URL_ELICITATION_REQUIRED = -32042;
/** Elicitations kept from one error (a server naming more is cut there). */
const MAX_ELICITATIONS = 5;

/** One page the person must open, as the upstream named it (checked). */
export interface UrlElicitation {
  mode: 'url';
  elicitationId: string;
  url: string;
  message: string;
}

/** The gateway's error for an upstream's -32042 answer to `what`. */
export function urlElicitationRequired(
  serverId: string,
  what: string,
  data: unknown,
  cause: unknown,
): CarteError {
  const elicitations = checkedElicitations(data);
  const pages = elicitations.map((e) => `${e.url}${e.message ? ` (${e.message})` : ''}`).join('; ');
  return new CarteError(
    'url_elicitation_required',
    `server "${serverId}" needs the user to open ${elicitations.length === 1 ? 'a page' : `${elicitations.length} pages`} in a browser before ${what} can go on`,
    {
      cause,
      details: { server: serverId, elicitations },
      operatorMessage: `server "${serverId}" needs you to open ${elicitations.length === 1 ? 'this page' : 'these pages'} in a browser, then make the call again: ${pages || '(it named none)'}`,
    },
  );
}

function checkedElicitations(data: unknown): UrlElicitation[] {
  const list = (data as { elicitations?: unknown } | null)?.elicitations;
  if (!Array.isArray(list)) return [];
  return list.slice(0, MAX_ELICITATIONS).flatMap((e: unknown): UrlElicitation[] => {
    if (typeof e !== 'object' || e === null) return [];
    const { url, elicitationId, message } = e as Record<string, unknown>;
    if (typeof url !== 'string' || typeof elicitationId !== 'string' || !isWebUrl(url)) return [];
    return [
      {
        mode: 'url',
        elicitationId: clean(elicitationId, 200),
        url,
        message: typeof message === 'string' ? clean(message, 300) : '',
      },
    ];
  });
}

function isWebUrl(text: string): boolean {
  if (text.length > 4096) return false;
  try {
    const u = new URL(text);
    // eslint-disable-next-line no-control-regex
    return (u.protocol === 'https:' || u.protocol === 'http:') && !/[\s\u0000-\u001f]/.test(text);
  } catch {
    return false;
  }
}

function clean(text: string, max: number): string {
  // eslint-disable-next-line no-control-regex
  const bare = text.replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, ' ');
  return bare.length > max ? `${bare.slice(0, max - 1)}…` : bare;
}
