// Secret detection: pure functions, no I/O. The audit log redacts stored arguments with them, and
// registration refuses proposals carrying inline secrets (issue 15, items 5 and 6).
//
// The value rules follow the shapes gitleaks' default config and secretlint's recommended preset
// match, cut to the ones an MCP argument, env value, URL or header is likely to hold. Neither is
// used as a dependency: secretlint's API is asynchronous and file-oriented (a config loader, rule
// packages, a formatter), gitleaks is a Go binary; the audit redacts on every call, which needs a
// synchronous check that costs microseconds.
//
// Caught: the named token shapes in VALUE_RULES (OpenAI and Anthropic `sk-`, GitHub `ghp_`/`gho_`/
// `ghu_`/`ghs_`/`ghr_`/`github_pat_`, GitLab `glpat-`, Slack `xox?-`, AWS access key ids, Google
// `AIza`, Stripe, npm, Hugging Face `hf_`, JWTs, PEM private keys), a password inside a URL
// (`https://user:pass@host`), an `Authorization` style value (`Bearer ...`, `Basic ...`), an
// assignment to a secret-looking name inside a string (`--password=x`, `API_KEY: x`), and long
// random-looking strings (HIGH_ENTROPY). Keys: names whose words include SECRET_WORDS.
//
// Missed, by design or by limit: short or dictionary passwords under an innocent name (`"hunter2"`
// as `q`); hex-only or lowercase-only keys (a 32-hex Datadog key, a git SHA and a UUID look alike,
// so none is flagged: a secret-looking name still catches them); secrets split across values or
// encoded (base64 of a JSON credential with no long random run); token shapes not listed here.
// A placeholder (`${env:NAME}`, `<token>`, `***`) is never a secret.

/** What replaces a secret. */
export const REDACTED = '[redacted]';

/** Words that make a key name secret-looking (`apiKey`, `X-Auth-Token`, `db_password`). */
const SECRET_WORDS = new Set([
  'token',
  'secret',
  'password',
  'passwd',
  'pwd',
  'passphrase',
  'apikey',
  'auth',
  'oauth',
  'authorization',
  'bearer',
  'cookie',
  'session',
  'credential',
  'credentials',
  'privatekey',
  'accesskey',
  'secretkey',
  'signingkey',
  'clientsecret',
  'jwt',
]);

/** A secret word followed by one of these names something about a secret, not the secret (`token_count`, `password_file`). */
const NOT_SECRET_SUFFIXES = new Set([
  'count',
  'limit',
  'max',
  'min',
  'size',
  'length',
  'len',
  'type',
  'kind',
  'url',
  'uri',
  'endpoint',
  'file',
  'path',
  'name',
  'format',
  'expiry',
  'expires',
  'ttl',
  'usage',
  'env',
]);

/** A name's words, lower case: `X-API-Key` → x, api, key; `clientSecret` → client, secret. */
function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** True when a key name looks like it holds a secret: `password`, `apiKey`, `X-Auth-Token`, `session_id`; not `max_tokens`, `token_count`, `author`. */
export function looksSecretKey(name: string): boolean {
  const w = words(name);
  if (w.length === 0 || NOT_SECRET_SUFFIXES.has(w[w.length - 1]!)) return false;
  for (let i = 0; i < w.length; i++) {
    if (SECRET_WORDS.has(w[i]!)) return true;
    if (i > 0 && SECRET_WORDS.has(w[i - 1]! + w[i]!)) return true; // api key, private key, client secret
  }
  return false;
}

interface ValueRule {
  id: string;
  /** Global; when it has a group named `s`, only that group is the secret. */
  pattern: RegExp;
}

/** Token shapes, each with an id a message may name without echoing the secret. */
const VALUE_RULES: readonly ValueRule[] = [
  {
    id: 'private-key',
    pattern: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END[^-]*-----|$)/g,
  },
  { id: 'openai-or-anthropic-key', pattern: /\bsk-(?:proj-|ant-(?:api\d\d-)?|svcacct-)?[A-Za-z0-9_-]{20,}/g },
  { id: 'github-token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})/g },
  { id: 'gitlab-token', pattern: /\bglpat-[A-Za-z0-9_-]{20,}/g },
  { id: 'slack-token', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g },
  { id: 'aws-access-key-id', pattern: /\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b/g },
  { id: 'google-api-key', pattern: /\bAIza[0-9A-Za-z_-]{35}/g },
  { id: 'stripe-key', pattern: /\b[rsp]k_(?:live|test)_[A-Za-z0-9]{16,}/g },
  { id: 'npm-token', pattern: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { id: 'huggingface-token', pattern: /\bhf_[A-Za-z0-9]{30,}\b/g },
  { id: 'jwt', pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  { id: 'url-password', pattern: /\b[a-z][a-z0-9+.-]*:\/\/[^\s:@/?#]*:(?<s>[^\s@/?#]+)@/gi },
  { id: 'authorization-value', pattern: /\b(?:Bearer|Basic|Token)\s+(?<s>[A-Za-z0-9._~+/=-]{8,})/g },
  {
    // `--password=x`, `API_KEY: x`, `password=x;` in a connection string; the name is checked by looksSecretKey.
    id: 'secret-assignment',
    pattern: /(?<name>[A-Za-z_][A-Za-z0-9_.-]*)["']?\s*[=:]\s*["']?(?<s>[^\s"',;&]{4,})/g,
  },
];

/** Candidates for HIGH_ENTROPY: runs of base64 / base64url characters ('/' splits: paths are not secrets). */
const RUN = /[A-Za-z0-9+_=-]{32,}/g;

/**
 * A run is random-looking when it mixes upper case, lower case and digits, switches between them
 * often (a camelCase identifier switches at word starts only, ~0.2 of characters; a random base62
 * string ~0.6) and carries at least 4 bits per character (random base62 of 32+ characters: ~4.6).
 */
const HIGH_ENTROPY = { minBits: 4, minSwitchRatio: 0.35 } as const;

/** Placeholders a config uses instead of a secret. */
const PLACEHOLDER =
  /^(?:\$\{[^}]*\}|\$[A-Z_][A-Z0-9_]*|<[^>]*>|\*+|x+|\[redacted\]|%[A-Z_]+%|\{\{[^}]*\}\})$/i;

const AUTH_SCHEME = /^(?:Bearer|Basic|Token|Digest)$/i;

/** One secret found in a string: its rule and where it is (never the text itself). */
export interface SecretMatch {
  rule: string;
  index: number;
  length: number;
}

/** Every secret in `text`, by rule; overlapping finds are kept (redaction merges them). */
export function findSecrets(text: string): SecretMatch[] {
  const found: SecretMatch[] = [];
  for (const { id, pattern } of VALUE_RULES) {
    for (const m of text.matchAll(pattern)) {
      const s = m.groups?.s;
      // `Authorization: Bearer x`: the scheme is not the secret; authorization-value finds x.
      if (id === 'secret-assignment' && (!looksSecretKey(m.groups!.name!) || AUTH_SCHEME.test(s!))) continue;
      if (s !== undefined && PLACEHOLDER.test(s)) continue;
      const index = s === undefined ? m.index : m.index + m[0].lastIndexOf(s);
      found.push({ rule: id, index, length: (s ?? m[0]).length });
    }
  }
  for (const m of text.matchAll(RUN)) {
    if (looksRandom(m[0])) found.push({ rule: 'high-entropy-string', index: m.index, length: m[0].length });
  }
  return found;
}

/** How a message names each rule's find, without the secret. */
const RULE_LABELS: Readonly<Record<string, string>> = {
  'private-key': 'a private key',
  'openai-or-anthropic-key': 'an OpenAI or Anthropic API key',
  'github-token': 'a GitHub token',
  'gitlab-token': 'a GitLab token',
  'slack-token': 'a Slack token',
  'aws-access-key-id': 'an AWS access key id',
  'google-api-key': 'a Google API key',
  'stripe-key': 'a Stripe key',
  'npm-token': 'an npm token',
  'huggingface-token': 'a Hugging Face token',
  jwt: 'a JSON Web Token',
  'url-password': 'a password inside a URL',
  'authorization-value': 'a credential after an auth scheme',
  'secret-assignment': 'a value assigned to a secret-looking name',
  'high-entropy-string': 'a random-looking key',
};

/** What kind of secret a value holds ("a GitHub token"), or undefined when none: for messages that must not echo it. */
export function secretKind(value: string): string | undefined {
  const first = findSecrets(value)[0];
  return first && (RULE_LABELS[first.rule] ?? 'a secret');
}

/** True when a string holds something that looks like a secret (see the top of this file for what is caught and missed). */
export function looksSecretValue(value: string): boolean {
  return findSecrets(value).length > 0;
}

/** `text` with every secret found replaced by REDACTED; the rest is kept. */
export function redactText(text: string): string {
  const found = findSecrets(text).sort((a, b) => a.index - b.index);
  if (found.length === 0) return text;
  let outText = '';
  let at = 0;
  for (const f of found) {
    if (f.index + f.length <= at) continue; // inside one already redacted
    outText += text.slice(at, Math.max(at, f.index)) + (f.index >= at ? REDACTED : '');
    at = f.index + f.length;
  }
  return outText + text.slice(at);
}

/** Nesting deeper than this is replaced whole (arguments are parsed JSON; this bounds the work). */
const MAX_DEPTH = 32;

/**
 * A copy of a JSON value with secrets replaced by REDACTED: the value of every secret-looking key
 * (unless it is null, a boolean or a number: a flag or a count says nothing), and every secret
 * inside any string (redactText). The input is not changed.
 */
export function redact(value: unknown): unknown {
  return redactAt(value, 0);
}

function redactAt(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return redactText(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return REDACTED;
  if (Array.isArray(value)) return value.map((v) => redactAt(v, depth + 1));
  const copy: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const keep = v === null || typeof v === 'boolean' || typeof v === 'number';
    copy[k] = looksSecretKey(k) && !keep && !isPlaceholder(v) ? REDACTED : redactAt(v, depth + 1);
  }
  return copy;
}

function isPlaceholder(v: unknown): boolean {
  return typeof v === 'string' && PLACEHOLDER.test(v.trim());
}

function looksRandom(run: string): boolean {
  let upper = 0;
  let lower = 0;
  let digit = 0;
  let switches = 0;
  let last = '';
  const counts = new Map<string, number>();
  for (const ch of run) {
    const cls =
      ch >= 'a' && ch <= 'z' ? 'l' : ch >= 'A' && ch <= 'Z' ? 'u' : ch >= '0' && ch <= '9' ? 'd' : 'o';
    if (cls === 'l') lower++;
    else if (cls === 'u') upper++;
    else if (cls === 'd') digit++;
    if (last && cls !== last) switches++;
    last = cls;
    counts.set(ch, (counts.get(ch) ?? 0) + 1);
  }
  if (!upper || !lower || !digit) return false;
  if (switches / run.length < HIGH_ENTROPY.minSwitchRatio) return false;
  let bits = 0;
  for (const n of counts.values()) bits -= (n / run.length) * Math.log2(n / run.length);
  return bits >= HIGH_ENTROPY.minBits;
}
