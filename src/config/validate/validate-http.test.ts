import { describe, expect, it } from 'vitest';
import { parseConfigText, type Problem } from '../index.js';

const SERVERS = 'servers:\n  fs:\n    command: b\n';
const yaml = (text: string) => parseConfigText(`${SERVERS}${text}`, { path: '/cfg/carte.yaml', env: {} });

describe('http: section', () => {
  it('defaults every key', () => {
    expect(yaml('').config?.http).toEqual({
      port: 7777,
      host: '127.0.0.1',
      allowedOrigins: [],
      maxSessions: 1000,
      trustProxy: false,
      sessionIdleMinutes: 30,
    });
  });

  it('reads the keys, with the implicit project "default" for anonymous access', () => {
    const r = yaml(
      'http:\n  port: 0\n  host: 0.0.0.0\n  anonymousProject: default\n  allowedOrigins: ["https://carte.example.com"]\n',
    );
    expect(r.errors).toEqual([]);
    expect(r.config?.http).toMatchObject({
      port: 0,
      host: '0.0.0.0',
      anonymousProject: 'default',
      allowedOrigins: ['https://carte.example.com'],
    });
  });

  it('reads a rate as text or as {perToken, total}', () => {
    expect(yaml('http:\n  rate: 10/s\n').config?.http.rate).toBe('10/s');
    const both = yaml('http:\n  rate: { perToken: 60/m, total: 600/m }\n');
    expect([both.errors, both.config?.http.rate]).toEqual([[], { perToken: '60/m', total: '600/m' }]);
  });

  it.each<[string, string, Problem[]]>([
    [
      'an anonymous project not configured (implicit default)',
      'http:\n  anonymousProject: team\n',
      [
        {
          path: 'http.anonymousProject',
          message: 'no project "team" is configured; the projects are "default"',
        },
      ],
    ],
    [
      'an anonymous project with a near miss',
      'projects:\n  team-a: {servers: [fs]}\nhttp:\n  anonymousProject: team_a\n',
      [
        {
          path: 'http.anonymousProject',
          message: 'no project "team_a" is configured; did you mean "team-a"?',
        },
      ],
    ],
    [
      'a rate without its unit',
      'http:\n  rate: 600\n',
      [
        {
          path: 'http.rate',
          message: 'invalid value 600: expected a rate such as "600/m", or {perToken, total}',
        },
      ],
    ],
    [
      'a rate per hour',
      'http:\n  rate: 600/h\n',
      [
        {
          path: 'http.rate',
          message: 'invalid value "600/h": expected requests per minute or second, like "600/m" or "10/s"',
        },
      ],
    ],
    [
      'a rate object with neither key',
      'http:\n  rate: {}\n',
      [{ path: 'http.rate', message: 'invalid value an object: give perToken, total or both' }],
    ],
    [
      'a bad total',
      'http:\n  rate: { total: 6/x }\n',
      [
        {
          path: 'http.rate.total',
          message: 'invalid value "6/x": expected requests per minute or second, like "600/m" or "10/s"',
        },
      ],
    ],
    [
      'an origin with a path',
      'http:\n  allowedOrigins: ["https://carte.example.com/menu"]\n',
      [
        {
          path: 'http.allowedOrigins.0',
          message:
            'invalid value "https://carte.example.com/menu": expected an origin: a scheme, a host and an optional port, like "https://carte.example.com"',
        },
      ],
    ],
  ])('refuses %s', (_name, text, errors) => {
    const r = yaml(text);
    expect(r.ok).toBe(false);
    expect(r.errors).toEqual(errors);
  });

  it('refuses an unknown key with a suggestion', () => {
    expect(yaml('http:\n  prot: 80\n').errors).toEqual([
      { path: 'http.prot', message: 'unknown key "prot"; did you mean "port"?' },
    ]);
  });
});
