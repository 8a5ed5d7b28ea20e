import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ROOT } from '../e2e/helpers.js';
import { startIssuer, type TestIssuer } from '../fixtures/oidc-issuer.js';
import { startPerUserUpstream, type PerUserUpstream } from '../fixtures/per-user-upstream.js';
import { hasSystem, program } from '../system-needs.js';
import { startCarte, type CarteProcess } from './carte-process.js';

// Slow: issue 41, "Teams": Link my account and Unlink on the web menu's Servers page for a per-user
// server (`oauth.identity: per-user`). The built CLI serving HTTP with an identity provider of our
// own (test/fixtures/oidc-issuer.ts) and test/fixtures/per-user-upstream.ts as server "team" (its
// authorization page signs in whoever the browser's `x-person` header names), and Debian's
// Chromium: a person whose tab holds the provider's token links their own account through a new
// tab, a call from the tool page answers with their identity, and Unlink (confirmed) puts them back
// to "not linked". A Carte admin token sees how many linked and has no account to link.
const CHROMIUM = '/usr/bin/chromium';
const hasChromium = hasSystem(import.meta.url, program(CHROMIUM, 'chromium'));
const SHOTS = join(ROOT, 'test-results');
const AUDIENCE = 'https://carte.example.com/mcp';
// Polls, not timings: a slow shared machine only waits longer.
const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 20_000 });

describe.skipIf(!hasChromium)("linking one's own account to a per-user server from the Servers page", () => {
  let idp: TestIssuer;
  let up: PerUserUpstream;
  let carte: CarteProcess;
  let browser: Browser;
  const problems: string[] = []; // console errors and page errors

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    [idp, up] = await Promise.all([startIssuer(AUDIENCE, 'ES256'), startPerUserUpstream()]);
    [carte, browser] = await Promise.all([
      startCarte({ perUser: { team: `${up.url}/mcp` }, oidc: { issuer: idp.url, audience: AUDIENCE } }),
      chromium.launch({ executablePath: CHROMIUM }),
    ]);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await carte?.stop();
    await up?.close();
    await idp?.close();
  });

  /** The Servers page as the bearer of `token`; `person` is who the upstream's authorization page signs in. */
  async function open(token: string, person?: string): Promise<Page> {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    if (person) await ctx.setExtraHTTPHeaders({ 'x-person': person });
    await ctx.addInitScript(`sessionStorage.setItem('carte.token', ${JSON.stringify(token)})`);
    const p = await ctx.newPage();
    p.setDefaultTimeout(10_000);
    p.on('console', (m) => void (m.type() === 'error' && problems.push(m.text())));
    p.on('pageerror', (e) => void problems.push(e.message));
    await p.goto(`${carte.url}/#/servers`);
    await poll(() => p.locator('main h1').textContent()).toBe('Servers');
    return p;
  }
  const line = (p: Page) => p.locator('.server-sign-in[data-server="team"]');
  const alice = () => idp.sign({ sub: 'alice@example.com', scope: 'openid carte:call' });

  it('links through a new tab, shows "linked", and a call answers with that person', async () => {
    const page = await open(await alice(), 'alice');
    await poll(() => line(page).locator('.badge').textContent()).toBe('not linked');
    expect(await line(page).textContent()).toMatch(/^Your account: not linked/);
    expect(await line(page).getByRole('button', { name: 'Unlink my account from team' }).count()).toBe(0);
    // Nobody has linked yet: the server needs a sign-in, but not `carte auth login`, which refuses it.
    expect(await page.locator('main').textContent()).not.toContain('carte auth login team');
    const [tab] = await Promise.all([
      page.context().waitForEvent('page'),
      line(page).getByRole('button', { name: 'Link my account to team' }).click(),
    ]);
    await tab.waitForURL(/\/oauth\/callback\?/);
    await poll(() => tab.locator('h1').textContent()).toBe('Signed in');
    expect(await tab.evaluate('window.opener')).toBeNull();
    await tab.close();
    await poll(() => line(page).locator('.badge').textContent()).toBe('linked');
    expect(await line(page).textContent()).toContain('scopes: notes');
    expect(await line(page).textContent()).not.toContain(up.issued.get('alice')![0]!); // no token
    expect(await page.locator('main .flash').textContent()).toBe('Linked your account to team.');
    await page.screenshot({ path: join(SHOTS, 'menu-servers-linked.png'), fullPage: true });

    // The first link listed the server's tools; a call from the tool page carries alice's token.
    await poll(
      async () =>
        (
          await fetch(`${carte.url}/api/v1/tools/team/whoami`, {
            headers: { authorization: `Bearer ${await alice()}` },
          })
        ).status,
    ).toBe(200);
    await page.goto(`${carte.url}/#/tool/team/whoami`);
    page.once('dialog', (d) => void d.accept()); // no annotations: read as destructive, confirmed
    await page.getByRole('button', { name: 'Call tool' }).click();
    await poll(() => page.locator('.call-result pre').first().textContent()).toBe('you are alice');
    expect(up.seen).toEqual([{ person: 'alice', token: up.issued.get('alice')![0] }]);
    await page.context().close();
  });

  it('a Carte admin token sees how many linked, and has no account to link', async () => {
    const page = await open(carte.adminToken);
    await poll(() => line(page).locator('.badge').textContent()).toBe('none');
    expect(await line(page).textContent()).toContain('1 person linked');
    expect(await line(page).textContent()).toContain("sign in here with your identity provider's token");
    expect(await line(page).locator('button').count()).toBe(0);
    expect(await line(page).textContent()).not.toContain('alice');
    await page.context().close();
  });

  it('unlinks after a confirm and shows "not linked" again', async () => {
    const page = await open(await alice(), 'alice');
    const dialogs: string[] = [];
    let accept = false;
    page.on('dialog', (d) => void (dialogs.push(d.message()), accept ? d.accept() : d.dismiss()));
    const unlink = line(page).getByRole('button', { name: 'Unlink my account from team' });
    await unlink.click();
    await poll(() => dialogs.length).toBe(1);
    expect(dialogs[0]).toMatch(/^Unlink your account from team\? /);
    expect(await line(page).locator('.badge').textContent()).toBe('linked'); // declined: nothing changed
    accept = true;
    await unlink.click();
    await poll(() => line(page).locator('.badge').textContent()).toBe('not linked');
    expect(await page.locator('main .flash').textContent()).toBe('Unlinked your account from team.');
    expect(await line(page).getByRole('button', { name: 'Link my account to team' }).count()).toBe(1);
  });

  it('met no console or page errors', () => {
    expect(problems).toEqual([]);
  });
});
