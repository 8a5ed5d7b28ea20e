import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { findSecrets, looksSecretKey, looksSecretValue, redact, redactText, REDACTED } from './secrets.js';

// Fake secrets of the real shapes (random-looking, never valid anywhere).
const GHP = 'ghp_' + 'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z5A';
const PAT = 'github_pat_11ABCDEFG0' + 'aBcDeFgHiJkLmNoPqRsTuV_wXyZ0123456789';
const SK = 'sk-proj-' + 'Zx8Qw2Er4Ty6Ui8Op0As2Df4Gh6Jk8L';
const ANT = 'sk-ant-api03-' + 'q1W2e3R4t5Y6u7I8o9P0a1S2d3F4g5H6';
const AKIA = 'AKIA' + 'IOSFODNN7EXAMPLE';
const SLACK = 'xoxb-' + '123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx';
const JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';
const PEM = '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAx\n-----END RSA PRIVATE KEY-----';
const RANDOM = 'q8F3kZ0vR7mB2xT9wL4cN6yH1pJ5sD3gA7eU0';

describe('looksSecretKey', () => {
  it.each([
    'password',
    'db_password',
    'PASSWD',
    'apiKey',
    'api_key',
    'X-API-Key',
    'x-auth-token',
    'Authorization',
    'auth',
    'cookie',
    'session',
    'session_id',
    'clientSecret',
    'private_key',
    'privateKey',
    'AWS_SECRET_ACCESS_KEY',
    'credentials',
    'refreshToken',
    'GITHUB_TOKEN',
  ])('%s is secret-looking', (name) => expect(looksSecretKey(name)).toBe(true));

  it.each([
    'max_tokens',
    'token_count',
    'tokenType',
    'password_file',
    'author',
    'authors',
    'key',
    'query',
    'path',
    'message',
    'sessions',
    'secretary',
    'oauth_url',
    '',
  ])('%s is not', (name) => expect(looksSecretKey(name)).toBe(false));
});

describe('looksSecretValue', () => {
  it.each([
    ['github classic', GHP, 'github-token'],
    ['github fine-grained', PAT, 'github-token'],
    ['openai', SK, 'openai-or-anthropic-key'],
    ['anthropic', ANT, 'openai-or-anthropic-key'],
    ['aws key id', AKIA, 'aws-access-key-id'],
    ['slack', SLACK, 'slack-token'],
    ['jwt', JWT, 'jwt'],
    ['pem', PEM, 'private-key'],
    ['gitlab', 'glpat-' + 'Ab3De5Gh7Jk9Mn1Pq3St', 'gitlab-token'],
    ['google', 'AIza' + 'SyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q', 'google-api-key'],
    ['stripe', 'sk_live_' + '4eC39HqLyjWDarjtT1zdp7dc', 'stripe-key'],
    ['npm', 'npm_' + 'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z5A', 'npm-token'],
    ['url password', 'postgres://app:s3cr3t-pw@db.internal:5432/app', 'url-password'],
    ['bearer', 'Bearer abcdef123456', 'authorization-value'],
    ['flag', '--password=hunter22', 'secret-assignment'],
    ['env line', 'API_KEY: abcd1234', 'secret-assignment'],
    ['random run', RANDOM, 'high-entropy-string'],
  ])('catches %s', (_name, text, rule) => {
    expect(looksSecretValue(text)).toBe(true);
    expect(looksSecretValue(`some text ${text} more`)).toBe(true);
    expect(findSecrets(text).map((f) => f.rule)).toContain(rule);
  });

  it.each([
    ['a sentence', 'list the open issues in carte and summarise them'],
    ['a git sha', '3f786850e387550fdab836ed7e6dc881de23001b'],
    ['a uuid', '123e4567-e89b-12d3-a456-426614174000'],
    ['a path', '/Users/Alice/Projects/Carte2026/src/gateway/index.ts'],
    ['a url', 'https://example.com/api/v2/repos/octocat/Hello-World/issues?state=open'],
    ['a url with a port', 'http://localhost:8080/mcp'],
    ['a camelCase identifier', 'getRepositoryContributorsStatistics2'],
    ['an env placeholder', '--token=${env:GITHUB_TOKEN}'],
    ['an angle placeholder', 'Authorization: Bearer <token>'],
    ['a count', 'max_tokens: 4096'],
    ['sk- prose', 'ask-me-anything'],
    ['the redaction mark', REDACTED],
  ])('leaves %s alone', (_name, text) => {
    expect(findSecrets(text)).toEqual([]);
  });
});

describe('redactText', () => {
  it('replaces only the secret and keeps the words around it', () => {
    expect(redactText(`use ${GHP} for the repo`)).toBe(`use ${REDACTED} for the repo`);
    expect(redactText('postgres://app:pw-123456@db/app')).toBe(`postgres://app:${REDACTED}@db/app`);
    expect(redactText('Authorization: Bearer abcdef123456')).toContain(`Bearer ${REDACTED}`);
    expect(redactText('Authorization: Bearer abcdef123456')).not.toContain('abcdef123456');
  });

  it('never leaves a planted secret in the output (property)', () => {
    const secrets = [GHP, PAT, SK, ANT, AKIA, SLACK, JWT, RANDOM];
    fc.assert(
      fc.property(fc.string(), fc.constantFrom(...secrets), fc.string(), (before, secret, after) => {
        const out = redactText(`${before} ${secret} ${after}`);
        expect(out).not.toContain(secret);
      }),
    );
  });
});

describe('redact', () => {
  it('redacts secret-looking keys and secret values at any depth, leaving the input as it was', () => {
    const args = {
      query: 'issues',
      max_tokens: 500,
      auth: { user: 'me', pass: 'hunter2' },
      headers: [{ name: 'x', Authorization: 'Basic dXNlcjpwYXNz' }],
      nested: { deep: [`token is ${SK}`], password: null, token_count: 3, verbose: true },
      apiKey: '${env:API_KEY}',
    };
    const before = structuredClone(args);
    expect(redact(args)).toEqual({
      query: 'issues',
      max_tokens: 500,
      auth: REDACTED,
      headers: [{ name: 'x', Authorization: REDACTED }],
      nested: { deep: [`token is ${REDACTED}`], password: null, token_count: 3, verbose: true },
      apiKey: '${env:API_KEY}',
    });
    expect(args).toEqual(before);
  });

  it('keeps scalars and bounds deep nesting', () => {
    expect(redact(42)).toBe(42);
    expect(redact(null)).toBe(null);
    let deep: unknown = 'x';
    for (let i = 0; i < 100; i++) deep = [deep];
    expect(JSON.stringify(redact(deep))).toContain(REDACTED);
  });
});
