import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ROOT, startSdkExample } from '../e2e/helpers.js';
import { hasSystem, program } from '../system-needs.js';
import { startCarte, type CarteProcess } from './carte-process.js';

// Slow: issue 41, Sign in and Sign out on the web menu's Servers page. The built CLI serving HTTP
// with the MCP SDK's OAuth example as server "notes" (its authorization server approves at once),
// and Debian's Chromium: an admin clicks Sign in, the authorization page opens in a new tab and
// comes back to Carte's /oauth/callback, the page shows "signed in", a tool call works, and Sign
// out (confirmed) makes it need a sign-in again. A caller without the admin scope sees the state only.
const CHROMIUM = '/usr/bin/chromium';
const hasChromium = hasSystem(import.meta.url, program(CHROMIUM, 'chromium'));
const SHOTS = join(ROOT, 'test-results');
// Polls, not timings: a slow shared machine only waits longer.
const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 20_000 });

describe.skipIf(!hasChromium)('signing in to a remote server from the Servers page', () => {
  let notes: { url: string; stop: () => void } | undefined;
  let carte: CarteProcess;
  let browser: Browser;
  const problems: string[] = []; // console errors and page errors

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    notes = await startSdkExample({ oauth: true });
    [carte, browser] = await Promise.all([
      startCarte({ remote: { notes: notes.url } }),
      chromium.launch({ executablePath: CHROMIUM }),
    ]);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await carte?.stop();
    notes?.stop();
  });

  async function open(token: string): Promise<Page> {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    await ctx.addInitScript(`sessionStorage.setItem('carte.token', ${JSON.stringify(token)})`);
    const p = await ctx.newPage();
    p.setDefaultTimeout(10_000);
    p.on('console', (m) => void (m.type() === 'error' && problems.push(m.text())));
    p.on('pageerror', (e) => void problems.push(e.message));
    await p.goto(`${carte.url}/#/servers`);
    await poll(() => p.locator('main h1').textContent()).toBe('Servers');
    return p;
  }
  const line = (p: Page) => p.locator('.server-sign-in[data-server="notes"]');

  it('signs in through a new tab, shows "signed in", and the server answers a call', async () => {
    const page = await open(carte.adminToken);
    await poll(() => line(page).locator('.badge').textContent()).toBe('needs sign-in');
    expect(await line(page).getByRole('button', { name: 'Sign out of notes' }).count()).toBe(0);
    const [tab] = await Promise.all([
      page.context().waitForEvent('page'),
      line(page).getByRole('button', { name: 'Sign in to notes' }).click(),
    ]);
    // The example's authorization server approves at once and redirects to Carte's callback page.
    await tab.waitForURL(/\/oauth\/callback\?/);
    await poll(() => tab.locator('h1').textContent()).toBe('Signed in');
    expect(await tab.locator('body').textContent()).toContain('You may close this tab');
    expect(await tab.evaluate('window.opener')).toBeNull();
    await tab.close();
    // The page polls the server's state: no reload.
    await poll(() => line(page).locator('.badge').textContent()).toBe('signed in');
    expect(await line(page).textContent()).toContain('scopes: mcp:tools');
    expect(await line(page).textContent()).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/); // no token
    await page.screenshot({ path: join(SHOTS, 'menu-servers-signed-in.png'), fullPage: true });

    await page.goto(`${carte.url}/#/tool/notes/greet`);
    await page.getByLabel(/name/).fill('Ada');
    // The example's tool has no annotations: the page reads it as destructive and asks first.
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'Call tool' }).click();
    await poll(() => page.locator('.call-result pre').first().textContent()).toBe('Hello, Ada!');
  });

  it('shows the state without buttons to a caller without the admin scope', async () => {
    const res = await fetch(`${carte.url}/api/v1/tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${carte.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ scopes: ['call'] }),
    });
    const { token } = (await res.json()) as { token: string };
    const page = await open(token);
    await poll(() => line(page).locator('.badge').textContent()).toBe('signed in');
    expect(await line(page).locator('button').count()).toBe(0);
    expect(await line(page).textContent()).not.toContain('scopes');
    await page.context().close();
  });

  it('signs out after a confirm and shows "needs sign-in" again', async () => {
    const page = await open(carte.adminToken);
    const dialogs: string[] = [];
    let accept = false;
    page.on('dialog', (d) => void (dialogs.push(d.message()), accept ? d.accept() : d.dismiss()));
    const signOut = line(page).getByRole('button', { name: 'Sign out of notes' });
    await signOut.click();
    await poll(() => dialogs.length).toBe(1);
    expect(dialogs[0]).toMatch(/^Sign out of notes\? /);
    expect(await line(page).locator('.badge').textContent()).toBe('signed in'); // declined: nothing changed
    accept = true;
    await signOut.click();
    await poll(() => line(page).locator('.badge').textContent()).toBe('needs sign-in');
    expect(await page.locator('main .flash').textContent()).toBe('Signed out of notes.');
    expect(await line(page).getByRole('button', { name: 'Sign in to notes' }).count()).toBe(1);
  });

  it('met no console or page errors', () => {
    expect(problems).toEqual([]);
  });
});
