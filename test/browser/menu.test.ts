import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Dialog, type Page } from 'playwright-core';
import { ROOT } from '../e2e/helpers.js';
import { hasSystem, program } from '../system-needs.js';
import { startCarte, type CarteProcess } from './carte-process.js';

// Slow: the built CLI serving HTTP, real upstream servers, and Debian's Chromium driven by
// playwright-core. `.ci/run` installs chromium; without it this file skips, and says so (fails under CI).
const CHROMIUM = '/usr/bin/chromium';
const hasChromium = hasSystem(import.meta.url, program(CHROMIUM, 'chromium'));
const SHOTS = join(ROOT, 'test-results');
// Polls, not timings: a slow shared machine only waits longer (discovery after an approval).
const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 20_000 });

describe.skipIf(!hasChromium)('the web menu in Chromium', () => {
  let carte: CarteProcess;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = []; // console errors, page errors, CSP violations

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    [carte, browser] = await Promise.all([startCarte(), chromium.launch({ executablePath: CHROMIUM })]);
    context = await browser.newContext({ viewport: { width: 1280, height: 860 }, colorScheme: 'light' });
    page = watch(await context.newPage());
  });
  afterAll(async () => {
    await browser?.close();
    await carte?.stop();
  });

  function watch(p: Page): Page {
    p.setDefaultTimeout(10_000); // a missing element fails the step, not the whole file's timeout
    // A 401 is expected once signed out (the page asks /me, then offers the sign-in form).
    const expected = /status of 401 \(Unauthorized\)/;
    p.on(
      'console',
      (m) => void (m.type() === 'error' && !expected.test(m.text()) && problems.push(m.text())),
    );
    p.on('pageerror', (e) => void problems.push(e.message));
    return p;
  }
  const shot = (p: Page, name: string) =>
    p.screenshot({ path: join(SHOTS, `menu-${name}.png`), fullPage: true });
  const heading = (p: Page) => p.locator('main h1');

  it('logs in with the printed one-time link, drops the code, and shows categories and the hot list', async () => {
    await page.goto(carte.loginUrl);
    await poll(() => heading(page).textContent()).toBe('Menu');
    expect(new URL(page.url()).hash).toBe('#/');
    expect(await page.evaluate('sessionStorage.getItem("carte.token")')).toMatch(/^carte_/);
    await poll(() => page.locator('#session .who').textContent()).toBe('default · admin');
    expect(await page.locator('.cards li').count()).toBeGreaterThan(0);
    expect(await page.locator('.cards').textContent()).toMatch(/\d+ tools? · \d+ servers?/);
    // The config pins everything/echo, so the hot list has it before any call.
    expect(await page.locator('main .tools li').first().textContent()).toMatch(/everything\/echo\s*pinned/);
    await shot(page, 'desktop-home');
  });

  it('refuses the same login link a second time', async () => {
    const other = await browser.newContext();
    const p = watch(await other.newPage());
    await p.goto(carte.loginUrl);
    await expect
      .poll(() => p.locator('.flash').textContent())
      .toMatch(/^Login link refused: the login code is unknown or was already used/);
    expect(await p.locator('main h2').first().textContent()).toBe('Sign in');
    await other.close();
  });

  it('trades a login link opened in a tab that already shows the menu (only the hash changes)', async () => {
    const other = await browser.newContext();
    const p = watch(await other.newPage());
    await p.goto(`${carte.url}/#/servers`);
    await poll(() => p.locator('main h2').first().textContent()).toBe('Sign in');
    await p.goto(carte.loginUrl); // same document: a hashchange, not a load
    await expect
      .poll(() => p.locator('.flash').textContent())
      .toMatch(/^Login link refused: the login code is unknown or was already used/);
    expect(new URL(p.url()).hash).toBe('#/');
    await other.close();
  });

  it('opens a category from the landing view', async () => {
    const card = page.locator('.cards a').first();
    const label = await card.locator('.card-title').textContent();
    await card.click();
    await poll(() => heading(page).textContent()).toBe(label);
    expect(page.url()).toMatch(/#\/category\/[\w-]+$/);
    expect(await page.locator('main .tools a').count()).toBeGreaterThan(0);
  });

  it("lists a server's tools by name for a search of a filter alone", async () => {
    await page.keyboard.press('/');
    await page.keyboard.type('server:everything');
    await page.keyboard.press('Enter');
    await poll(() => heading(page).textContent()).toBe('Search');
    await poll(() => page.locator('main ol.tools .tool-key').count()).toBeGreaterThan(1);
    const keys = await page.locator('main ol.tools .tool-key').allTextContents();
    expect(keys.every((k) => k.startsWith('everything/'))).toBe(true);
    expect(keys).toEqual([...keys].sort());
    await page.locator('#search input').fill('');
    await page.locator('#search input').blur(); // so the next test's "/" is the shortcut again
  });

  it('searches from the header box and ranks everything/echo', async () => {
    await page.keyboard.press('/'); // the shortcut focuses the box
    await page.keyboard.type('echo the message back');
    await page.keyboard.press('Enter');
    await poll(() => heading(page).textContent()).toBe('Search');
    const hash = new URL(page.url()).hash;
    expect(new URLSearchParams(hash.slice(hash.indexOf('?'))).get('q')).toBe('echo the message back');
    const keys = await page.locator('main ol.tools .tool-key').allTextContents();
    expect(keys.slice(0, 3)).toContain('everything/echo');
    await shot(page, 'desktop-search');
  });

  it('opens a tool page with badges and its inputs as a list of fields', async () => {
    await page.locator('main a', { hasText: 'everything/echo' }).click();
    await poll(() => page.url()).toMatch(/#\/tool\/everything\/echo$/);
    await poll(() => page.locator('.fields .field-name').allTextContents()).toEqual(['message']);
    expect(await page.locator('.fields li').first().textContent()).toMatch(/^message string\s*required/);
    expect(await page.locator('.tool-key .badge').first().textContent()).toMatch(
      /^(read-only|writes|destructive)$/,
    );
    expect(await page.locator('pre.signature').textContent()).toMatch(
      /^\/\*\* Echoes back the input.*\*\/\ndeclare function call\(key: "everything\/echo", args: \{/s,
    );
  });

  it('calls the tool from the form and shows the result', async () => {
    await page.getByLabel(/message/).fill('hello from the menu');
    await page.getByRole('button', { name: 'Call tool' }).click();
    await expect
      .poll(() => page.locator('.call-result pre').first().textContent())
      .toBe('Echo: hello from the menu');
    expect(await page.locator('.call-result .badge').textContent()).toBe('ok');
    await shot(page, 'desktop-tool');
  });

  it('shows hostile descriptions and schemas as text, never markup', async () => {
    await page.goto(`${carte.url}/#/tool/hostile/render_markup`);
    await expect
      .poll(() => heading(page).textContent())
      .toBe('Markup <img src=x onerror="window.__pwned=1">');
    expect(await page.locator('.description').textContent()).toContain('<script>window.__pwned=2</script>');
    expect(await page.locator('.field-desc').first().textContent()).toBe(
      'Field <img src=x onerror="window.__pwned=1">',
    );
    expect(await page.locator('.field-extra').first().textContent()).toBe('One of: "<b>bold</b>", "plain"');
    expect(await page.locator('pre.signature').textContent()).toContain(
      'declare function call(key: "hostile/render_markup", args: {\n  /** Field <img src=x onerror="window.__pwned=1"> */\n',
    );
    expect(await page.locator('main img, main script, main b').count()).toBe(0);
    expect(await page.evaluate('window.__pwned')).toBeUndefined();
    expect(await page.locator('.tool-key .badge').first().textContent()).toBe('read-only');
    await shot(page, 'desktop-hostile');
  });

  it('checks a JSON box before asking to confirm a destructive call, and clears the error once it parses', async () => {
    await page.goto(`${carte.url}/#/tool/hostile/erase`);
    await poll(() => page.locator('.tool-key .badge').first().textContent()).toBe('destructive');
    const box = page.getByLabel(/filter/);
    const result = page.locator('.call-result');
    const dialogs: string[] = [];
    let accept = false;
    const onDialog = (d: Dialog) => void (dialogs.push(d.message()), accept ? d.accept() : d.dismiss());
    page.on('dialog', onDialog);
    await box.fill('{name: 1}');
    await page.getByRole('button', { name: 'Call tool' }).click();
    await poll(() => result.textContent()).toBe('filter is not valid JSON.');
    expect(dialogs).toEqual([]);
    await box.fill('{"name": 1}');
    await page.getByRole('button', { name: 'Call tool' }).click();
    await poll(() => dialogs.length).toBe(1);
    expect(dialogs[0]).toBe('hostile/erase is marked destructive. Call it?');
    expect(await result.textContent()).toBe(''); // declined: no answer, and no stale error
    accept = true;
    await page.getByRole('button', { name: 'Call tool' }).click();
    await poll(() => result.locator('pre').first().textContent()).toBe('would erase {"name":1}');
    page.off('dialog', onDialog);
  });

  it('approves a pending server after a pasted admin token', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await poll(() => page.getByRole('button', { name: 'Sign in' }).count()).toBe(1);
    await page.goto(`${carte.url}/#/approvals`);
    await poll(() => page.locator('main h2').first().textContent()).toBe('Sign in');
    await page.getByLabel('Token').fill(carte.adminToken);
    await page.getByRole('button', { name: 'Use token' }).click();
    await poll(() => heading(page).textContent()).toBe('Approvals');
    const item = page.locator('.approval', { hasText: carte.pendingId });
    expect(await item.locator('h3').textContent()).toBe('memory');
    await shot(page, 'desktop-approvals');
    await item.getByRole('button', { name: 'Approve' }).click();
    await expect
      .poll(() => page.locator('.flash').textContent())
      .toMatch(/^Approved memory\. Discovered \d+ tools\.$/);
    expect(await page.locator('.approval', { hasText: carte.pendingId }).count()).toBe(0);
    await page.goto(`${carte.url}/#/servers`);
    await poll(() => page.locator('.server-name').allTextContents()).toContain('memory');
    await shot(page, 'desktop-servers');
  });

  it("shows each stdio server's sandbox: its grant and limits, or that it runs with full rights", async () => {
    await page.goto(`${carte.url}/#/servers`);
    const sandboxOf = (id: string) =>
      page
        .locator('.server', { has: page.locator('.server-name', { hasText: new RegExp(`^${id}$`) }) })
        .locator('.server-sandbox');
    await poll(() => sandboxOf('boxed').textContent()).toBe(
      'Sandboxed · network: registry.npmjs.org, localhost:5173 · memory 256 MiB, 32 processes',
    );
    // Approved through registration: sandboxed, no network granted.
    expect(await sandboxOf('memory').textContent()).toBe('Sandboxed · network: none · no limits');
    expect(await sandboxOf('everything').textContent()).toBe('Not sandboxed: runs with your full rights');
  });

  it('takes a pasted token in the header dialog, which Escape and Cancel close', async () => {
    const ctx = await browser.newContext();
    const p = watch(await ctx.newPage());
    await p.goto(carte.url);
    await poll(() => p.locator('main h2').first().textContent()).toBe('Sign in');
    const dialog = p.locator('dialog');
    await p.getByRole('button', { name: 'Sign in' }).click();
    await p.keyboard.press('Escape');
    await poll(() => dialog.count()).toBe(0);
    await p.getByRole('button', { name: 'Sign in' }).click();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await poll(() => dialog.count()).toBe(0);
    await p.getByRole('button', { name: 'Sign in' }).click();
    await dialog.getByLabel('Token').fill(carte.adminToken);
    await p.keyboard.press('Enter');
    await poll(() => p.locator('#session .who').textContent()).toBe('default · admin');
    await poll(() => heading(p).textContent()).toBe('Menu');
    expect(await dialog.count()).toBe(0);
    await ctx.close();
  });

  it('says why a pasted token is refused, keeps the dialog open and does not store the token', async () => {
    const ctx = await browser.newContext();
    const p = watch(await ctx.newPage());
    await p.goto(`${carte.url}/#/servers`);
    const panel = p.locator('main .panel');
    await panel.getByLabel('Token').fill('carte_typo');
    await panel.getByRole('button', { name: 'Use token' }).click();
    const malformed =
      'Token refused: the bearer token is malformed: a Carte token is "carte_" and 43 more characters; send the whole token';
    await poll(() => panel.getByRole('alert').textContent()).toBe(malformed);
    expect(await p.evaluate('sessionStorage.getItem("carte.token")')).toBeNull();
    expect(await p.getByRole('button', { name: 'Sign in' }).count()).toBe(1);
    await p.getByRole('button', { name: 'Sign in' }).click();
    const dialog = p.locator('dialog');
    await dialog.getByLabel('Token').fill('carte_typo');
    await p.keyboard.press('Enter');
    await poll(() => dialog.getByRole('alert').textContent()).toBe(malformed);
    await dialog.getByLabel('Token').fill(carte.adminToken);
    await p.keyboard.press('Enter');
    await poll(() => p.locator('#session .who').textContent()).toBe('default · admin');
    expect(await dialog.count()).toBe(0);
    await ctx.close();
  });

  it('says why the API refuses the token a tab already holds (unknown, revoked, expired)', async () => {
    const ctx = await browser.newContext();
    await ctx.addInitScript(`sessionStorage.setItem('carte.token', 'carte_${'A'.repeat(43)}')`);
    const p = watch(await ctx.newPage());
    await p.goto(`${carte.url}/#/servers`);
    await poll(() => p.locator('main .panel > [role=alert]').textContent()).toBe(
      'Token refused: the bearer token is not known to this Carte; create one with "carte token create --project P"',
    );
    await ctx.close();
  });

  it.each([
    [
      'phone',
      {
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
        colorScheme: 'light' as const,
      },
    ],
    ['dark', { viewport: { width: 1280, height: 860 }, colorScheme: 'dark' as const }],
    ['phone-dark', { viewport: { width: 390, height: 844 }, isMobile: true, colorScheme: 'dark' as const }],
  ])('renders on %s without sideways scrolling', async (name, options) => {
    const ctx = await browser.newContext(options);
    await ctx.addInitScript(`sessionStorage.setItem('carte.token', ${JSON.stringify(carte.adminToken)})`);
    const p = watch(await ctx.newPage());
    for (const [view, hash] of [
      ['home', '#/'],
      ['tool', '#/tool/everything/echo'],
      ['servers', '#/servers'],
    ] as const) {
      await p.goto(`${carte.url}/${hash}`);
      await poll(() => p.locator('main').getAttribute('aria-busy')).toBeNull();
      await shot(p, `${name}-${view}`);
      expect(await p.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
        options.viewport.width,
      );
      // On a phone the header folds to three rows: logo and Sign out, the five links on one line, search.
      const box = (selector: string) =>
        p.locator(selector).evaluate((e) => {
          const r = e.getBoundingClientRect();
          return { top: r.top, middle: (r.top + r.bottom) / 2, bottom: r.bottom };
        });
      const [brand, session, first, last, search] = await Promise.all(
        ['.brand', '#session', 'nav a >> nth=0', 'nav a >> nth=-1', '#search'].map(box),
      );
      if (options.viewport.width < 640) {
        expect(session!.middle).toBeGreaterThan(brand!.top);
        expect(session!.middle).toBeLessThan(brand!.bottom);
        expect(last!.top).toBe(first!.top);
        expect(first!.top).toBeGreaterThanOrEqual(brand!.bottom);
        expect(search!.top).toBeGreaterThanOrEqual(last!.bottom);
      }
    }
    await ctx.close();
  });

  it('logged no console errors, page errors or CSP violations', () => {
    expect(problems).toEqual([]);
  });
});
