import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ROOT } from '../e2e/helpers.js';
import { hasSystem, program } from '../system-needs.js';
import { startCarte, type CarteProcess } from './carte-process.js';

// Slow: the activity and tokens views (issue 30) over the built CLI serving HTTP and a real
// server-everything, in Debian's Chromium. The calls the chart, the tables and the audit log
// show are made here; the token the page creates is used for a real REST call, then revoked.
const CHROMIUM = '/usr/bin/chromium';
const hasChromium = hasSystem(import.meta.url, program(CHROMIUM, 'chromium'));
const SHOTS = join(ROOT, 'test-results');
const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 20_000 });
const OK_CALLS = 4;
const FAILED_CALLS = 1;
/** What the failed call (echo without its message) answers, and its audit row then shows. */
const FAILED_MESSAGE = `arguments for "everything/echo" do not match its input schema: (root) must have required property 'message'`;
const WIDTHS = [
  ['desktop', { viewport: { width: 1280, height: 800 } }],
  ['phone', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }],
] as const;

describe.skipIf(!hasChromium)('the activity and tokens views in Chromium', () => {
  let carte: CarteProcess;
  let browser: Browser;
  const problems: string[] = [];

  /** A REST call to everything/echo with `token`; its HTTP status. */
  async function echo(token: string, args: Record<string, unknown> = { message: 'hi' }): Promise<number> {
    const res = await fetch(`${carte.url}/api/v1/tools/everything/echo/call`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ arguments: args }),
    });
    await res.text();
    return res.status;
  }

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    [carte, browser] = await Promise.all([startCarte(), chromium.launch({ executablePath: CHROMIUM })]);
    for (let i = 0; i < OK_CALLS; i++) expect(await echo(carte.adminToken)).toBe(200);
    // No message: the upstream refuses the arguments, so the call ends in an error.
    for (let i = 0; i < FAILED_CALLS; i++) expect(await echo(carte.adminToken, {})).not.toBe(500);
  });
  afterAll(async () => {
    await browser?.close();
    await carte?.stop();
  });

  async function open(options: (typeof WIDTHS)[number][1], token = carte.adminToken): Promise<Page> {
    const ctx = await browser.newContext({ ...options, acceptDownloads: true });
    await ctx.addInitScript(`sessionStorage.setItem('carte.token', ${JSON.stringify(token)})`);
    const p = await ctx.newPage();
    p.setDefaultTimeout(10_000);
    p.on('console', (m) => void (m.type() === 'error' && problems.push(m.text())));
    p.on('pageerror', (e) => void problems.push(e.message));
    return p;
  }
  const ready = (p: Page) => poll(() => p.locator('main').getAttribute('aria-busy')).toBeNull();
  const noSideways = async (p: Page) =>
    expect(
      await p.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'),
    ).toBeLessThanOrEqual(0);

  /** The chart's legend values (Calls, Errors) with the cursor over bucket `i` of `n`. */
  async function legendAt(p: Page, i: number, n: number): Promise<[number, number]> {
    const box = (await p.locator('.chart .u-over').boundingBox())!;
    // The last bucket sits on the plot's right edge: stay a pixel inside it.
    await p.mouse.move(box.x + Math.min((i / (n - 1)) * box.width, box.width - 1), box.y + box.height / 2);
    const values = await p.locator('.chart .u-legend .u-series .u-value').allTextContents();
    // A bucket without errors has no marker: its value shows empty.
    const num = (text: string | undefined) => (text === undefined || text === '' ? 0 : Number(text));
    return [num(values[1]), num(values[2])];
  }

  it.each(WIDTHS)(
    '%s: the chart draws the calls made, errors marked; servers, top tools, audit rows',
    async (name, options) => {
      const p = await open(options);
      await p.goto(`${carte.url}/#/activity`);
      await ready(p);
      expect(await p.locator('main h1').textContent()).toBe('Activity');
      await p.locator('.chart canvas').waitFor();
      // Read the drawn chart through its own legend: hovering each minute of the hour must add up
      // to the calls this test made, with the failed one marked as an error.
      const n = 60;
      let calls = 0;
      let errors = 0;
      for (let i = 0; i < n; i++) {
        const [c, e] = await legendAt(p, i, n);
        calls += c;
        errors += e;
      }
      expect([calls, errors]).toEqual([OK_CALLS + FAILED_CALLS, FAILED_CALLS]);
      expect(await p.locator('.totals').textContent()).toBe(
        `${OK_CALLS + FAILED_CALLS} calls, ${FAILED_CALLS} error (20%)`,
      );
      expect(await p.locator('table.stats tbody tr th').allTextContents()).toEqual(['everything']);
      expect(await p.locator('ol.usage li code').first().textContent()).toBe('everything/echo');
      const rows = p.locator('ol.audit .audit-row');
      await poll(() => rows.count()).toBeGreaterThanOrEqual(OK_CALLS + FAILED_CALLS);
      expect(await p.locator('ol.audit .audit-row', { hasText: 'everything/echo' }).count()).toBe(
        OK_CALLS + FAILED_CALLS,
      );
      // The failed call's row says why, as its caller was told (the audit row's detail).
      expect(await p.locator('ol.audit .audit-row .audit-message').allTextContents()).toEqual([
        FAILED_MESSAGE,
      ]);
      await noSideways(p);
      await p.screenshot({ path: join(SHOTS, `activity-${name}.png`), fullPage: true });
      await p.context().close();
    },
  );

  it('filters the audit log by outcome and downloads it as JSONL', async () => {
    const p = await open(WIDTHS[0][1]);
    await p.goto(`${carte.url}/#/activity`);
    await ready(p);
    await p.getByLabel('Outcome').selectOption('ok');
    await p.locator('form.filters [name=tool]').fill('everything/echo');
    await p.getByRole('button', { name: 'Filter' }).click();
    await poll(() => p.url()).toContain('outcome=ok');
    await ready(p);
    await poll(() => p.locator('ol.audit .audit-row').count()).toBe(OK_CALLS);
    expect(new Set(await p.locator('ol.audit .audit-row .badge').allTextContents())).toEqual(new Set(['ok']));
    const [download] = await Promise.all([
      p.waitForEvent('download'),
      p.getByRole('button', { name: 'Download JSONL' }).click(),
    ]);
    const lines = readFileSync(await download.path(), 'utf8')
      .trim()
      .split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { key: string; outcome: string }).outcome)).toEqual(
      Array(OK_CALLS).fill('ok'),
    );
    expect(download.suggestedFilename()).toBe('carte-audit-default.jsonl');
    await p.context().close();
  });

  it.each(WIDTHS)(
    '%s: a token made on the page works for a call and stops after revoke on the page',
    async (name, options) => {
      const p = await open(options);
      await p.goto(`${carte.url}/#/tokens`);
      await ready(p);
      expect(await p.locator('nav a[data-view="tokens"]').isVisible()).toBe(true);
      // A login link's session holds a token the list does not show: the page says so.
      await expect.poll(() => p.getByText("A login link's session is not listed").isVisible()).toBe(true);
      // The form's controls line up: one height, and on one row one bottom edge.
      const boxes = await Promise.all(
        ['Name', 'Scope', 'Expires in days', 'Requests per minute'].map(
          async (label) => (await p.getByLabel(label).boundingBox())!,
        ),
      );
      for (const b of boxes) expect(Math.abs(b.height - boxes[0]!.height)).toBeLessThan(1);
      for (const b of boxes.filter((b) => Math.abs(b.y - boxes[0]!.y) < b.height))
        expect(Math.abs(b.y + b.height - (boxes[0]!.y + boxes[0]!.height))).toBeLessThan(1);
      await p.getByLabel('Name').fill(`browser ${name}`);
      await p.getByLabel('Scope').selectOption('call');
      // On the desktop a rate of its own; on the phone none, so the config's http.rate applies.
      if (name === 'desktop') await p.getByLabel('Requests per minute').fill('5');
      await p.getByRole('button', { name: 'Create' }).click();
      const secret = await p.locator('.secret-value').inputValue({ timeout: 10_000 });
      expect(secret).toMatch(/^carte_[\w-]{43}$/);
      const item = p.locator('ul.tokens li.token', { hasText: `browser ${name}` });
      await poll(() => item.count()).toBe(1);
      const rate = name === 'desktop' ? '5/m' : '100000/m (project)';
      expect(await item.locator('.rate').textContent()).toBe(rate);
      expect(await p.getByLabel('Requests per minute').inputValue()).toBe('');
      expect(await echo(secret)).toBe(200);
      await noSideways(p);
      await p.screenshot({ path: join(SHOTS, `tokens-${name}.png`), fullPage: true });
      p.once('dialog', (d) => void d.accept());
      await item.getByRole('button', { name: /^Revoke/ }).click();
      await poll(() => p.locator('main .status').textContent()).toMatch(/^Revoked token \S+\.$/);
      expect(
        await p
          .locator('ul.tokens li.token', { hasText: `browser ${name}` })
          .locator('.badge')
          .textContent(),
      ).toBe('revoked');
      expect(await echo(secret)).toBe(401);
      await p.reload(); // the list as GET /tokens gives it
      await ready(p);
      expect(await item.locator('.rate').textContent()).toBe(rate);
      await p.context().close();
    },
  );

  it('an admin token made on the page must expire within 90 days', async () => {
    const p = await open(WIDTHS[0][1]);
    await p.goto(`${carte.url}/#/tokens`);
    await ready(p);
    const days = p.getByLabel('Expires in days');
    expect(await days.getAttribute('placeholder')).toBe('never');
    await p.getByLabel('Name').fill('browser admin');
    await p.getByLabel('Scope').selectOption('admin');
    expect(await days.getAttribute('placeholder')).toBe('1 to 90');
    expect(await days.getAttribute('max')).toBe('90');
    expect(await days.getAttribute('required')).toBe(''); // the property, reflected
    await days.fill('30');
    await p.getByRole('button', { name: 'Create' }).click();
    const secret = await p.locator('.secret-value').inputValue({ timeout: 10_000 });
    expect(await echo(secret)).toBe(200);
    await p.context().close();
  });

  it("a call token sees its project's chart but not the audit log nor the tokens link", async () => {
    const made = await fetch(`${carte.url}/api/v1/tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${carte.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ scopes: ['call'], name: 'reader' }),
    });
    const { token } = (await made.json()) as { token: string };
    const p = await open(WIDTHS[1][1], token);
    await p.goto(`${carte.url}/#/activity?range=week`);
    await ready(p);
    await p.locator('.chart canvas').waitFor();
    expect(await p.locator('nav a[data-view="tokens"]').isVisible()).toBe(false);
    expect(await p.locator('main').textContent()).toContain(
      'The audit log needs a token with the admin scope.',
    );
    await noSideways(p);
    await p.screenshot({ path: join(SHOTS, 'activity-phone-call-token.png'), fullPage: true });
    await p.context().close();
  });

  it('a call token sees no Approvals link, and an admin view it opens offers to paste a better token', async () => {
    const made = await fetch(`${carte.url}/api/v1/tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${carte.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ scopes: ['call'], name: 'caller' }),
    });
    const { token } = (await made.json()) as { token: string };
    const p = await open(WIDTHS[0][1], token);
    const before = problems.length;
    await p.goto(`${carte.url}/#/tokens`);
    await ready(p);
    expect(await p.locator('nav a[data-view="approvals"]').isVisible()).toBe(false);
    expect(await p.locator('main div[role=alert]').textContent()).toMatch(
      /^Failed: listing tokens needs the admin scope/,
    );
    await p.locator('main').getByLabel('Token').fill(carte.adminToken);
    await p.locator('main').getByRole('button', { name: 'Use token' }).click();
    await expect.poll(() => p.locator('main h1').textContent()).toBe('Tokens');
    expect(await p.locator('nav a[data-view="approvals"]').isVisible()).toBe(true);
    // The one console error is the browser's note of the expected 403.
    expect(problems.splice(before)).toEqual([expect.stringMatching(/status of 403 \(Forbidden\)/)]);
    await p.context().close();
  });

  it('logged no console errors or page errors', () => {
    expect(problems).toEqual([]);
  });
});
