import { describe, expect, it } from 'vitest';
import { parseConfigText } from '../index.js';

const SERVERS = 'servers:\n  fs:\n    command: b\n';
const yaml = (text: string) => parseConfigText(`${SERVERS}${text}`, { path: '/cfg/carte.yaml', env: {} });

describe('auth: section', () => {
  it('has no provider by default', () => {
    expect(yaml('').config?.auth).toEqual({});
  });

  it('reads auth.oidc with its defaults', () => {
    const r = yaml(
      'auth:\n  oidc:\n    issuer: https://idp.example.com/realms/team\n    audience: https://carte.example.com/mcp\n    scopeMap: { "carte:call": [call] }\n',
    );
    expect(r.errors).toEqual([]);
    expect(r.config?.auth.oidc).toEqual({
      issuer: 'https://idp.example.com/realms/team',
      audience: 'https://carte.example.com/mcp',
      maxKeyStalenessHours: 24,
      projectClaim: 'carte_project',
      scopesClaim: 'scope',
      scopeMap: { 'carte:call': ['call'] },
      scopesSupported: [],
    });
  });

  it.each([
    ['no issuer', 'auth:\n  oidc:\n    audience: x\n', 'auth.oidc.issuer'],
    ['an issuer that is not a URL', 'auth:\n  oidc:\n    issuer: idp\n    audience: x\n', 'auth.oidc.issuer'],
    [
      'a scope Carte does not have',
      'auth:\n  oidc:\n    issuer: https://idp\n    audience: x\n    scopeMap: { a: [write] }\n',
      'auth.oidc.scopeMap.a.0',
    ],
    [
      'a key staleness of zero hours',
      'auth:\n  oidc:\n    issuer: https://idp\n    audience: x\n    maxKeyStalenessHours: 0\n',
      'auth.oidc.maxKeyStalenessHours',
    ],
    [
      'a key staleness that is not a whole number of hours',
      'auth:\n  oidc:\n    issuer: https://idp\n    audience: x\n    maxKeyStalenessHours: 1.5\n',
      'auth.oidc.maxKeyStalenessHours',
    ],
    ['an unknown key', 'auth:\n  oidc:\n    issuer: https://idp\n    audience: x\n    jwks: y\n', 'auth.oidc.jwks'],
  ])('refuses %s at its path', (_name, text, path) => {
    const r = yaml(text);
    expect(r.config).toBeUndefined();
    expect(r.errors.map((e) => e.path)).toContain(path);
  });

  it('suggests the key meant', () => {
    const r = yaml('auth:\n  oidc:\n    issuer: https://idp\n    audience: x\n    jwksUri: y\n');
    expect(r.errors.map((e) => e.message)).toEqual(['unknown key "jwksUri"; did you mean "jwksUrl"?']);
  });
});
