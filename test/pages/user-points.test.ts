// The user's points page in a real browser (Debian Chromium via playwright-core): rows
// checked against the summary API, the no-window case, missing and expired tokens, the text a user
// reads at phone and desktop widths, no console errors, a refresh when a recovery time passes, the
// points set aside in holds and the recent activity checked against the history API.
// Time is the test's: the server runs on a ManualClock and the browser's clock (playwright's
// page.clock, in UTC) is paused at the same instant, so the whole page is checked at 23:30, when a
// recovery five hours away is "tomorrow", and at 00:30, when it is later the same day; time passes
// only when the test moves both clocks.
// Screenshots are kept in test-artifacts/ (not committed).

import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { ManualClock } from '../../server/lib/clock.ts';
import { hasChromium, launchBrowser } from '../helpers/browser.ts';
import { api } from '../helpers/http.ts';
import { startIdp, type TestIdp } from '../helpers/idp.ts';
import { type InProcessServer, ROOT, startInProcess } from '../helpers/server.ts';

const REALM = 'shop';
const AUD = 'com.shop.app';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

/** The two times of day the page is read at (UTC, the browser's time zone here), with how it must
 *  say the moments 1, 3 and 5 hours ahead: after midnight at 23:30, the same day at 00:30. */
const TIMES_OF_DAY = [
  { name: '23:30', start: Date.UTC(2027, 2, 9, 23, 30), in3h: 'tomorrow at', in5h: 'tomorrow at', by1h: 'by tomorrow', by5h: 'by tomorrow' },
  { name: '00:30', start: Date.UTC(2027, 2, 10, 0, 30), in3h: 'at', in5h: 'at', by1h: 'by(?! tomorrow)', by5h: 'by(?! tomorrow)' },
] as const;

for (const day of TIMES_OF_DAY) describePageAt(day);

function describePageAt(day: (typeof TIMES_OF_DAY)[number]): void {
  const clock = new ManualClock(day.start);
  let srv: InProcessServer;
  let idp: TestIdp;
  let browser: Browser;
  let admin: ReturnType<typeof api>;

  async function login(sub: string, email: string, realm = REALM): Promise<{ userId: string; accessToken: string }> {
    const token = await idp.token({ sub, email }, { now: Math.floor(clock.now() / 1000) });
    const res = await api(srv.http).post(`/api/oauth/${realm}/apple/native-login`, { identityToken: token, clientId: 'app' });
    assert.equal(res.status, 200, res.text);
    return res.body as { userId: string; accessToken: string };
  }

  /** A realm with the app as its client and Sign in with Apple on. */
  async function createRealm(id: string, name: string): Promise<void> {
    assert.equal((await admin.post('/api/admin/realms', { id, name })).status, 200);
    const client = { clientId: 'app', name: 'App', type: 'first_party', redirectUris: [] };
    assert.equal((await admin.post(`/api/admin/realms/${id}/clients`, client)).status, 200);
    assert.equal((await admin.put(`/api/admin/realms/${id}/providers/apple`, { clientId: AUD, enabled: true })).status, 200);
  }

  /** A monthly subscription whose entitlement is quota windows alone; its mapping id. */
  async function windowsProduct(realm: string, product: string, quotaWindows: Array<{ windowSeconds: number; limit: number }>): Promise<string> {
    const entitlement = { billingType: 'recurring', billingPeriod: 'monthly', pointsPerPeriod: 0, grantPeriodType: 'monthly', validityDays: 0 };
    const row = { ...entitlement, entitlementKey: product, grantOnSubscribe: true, maxPeriods: 0, enabled: true, quotaWindows };
    const batch = await admin.put(`/api/bill/${realm}/entitlement-mappings/batch`, { paymentProvider: 'appstore', externalProductId: product, updates: [row] });
    assert.equal(batch.status, 200, batch.text);
    return batch.body.mappings[0].mappingId;
  }

  /** A page whose clock stands at the server's now until `advance` moves both. Waits have no time
   *  limit of their own: each waits for what the page shows, however slow the machine. */
  async function openPage(
    token: string | null,
    opts: { viewport?: { width: number; height: number }; realm?: string } = {},
  ): Promise<{ page: Page; errors: string[] }> {
    const page = await browser.newPage({ viewport: opts.viewport ?? PHONE, deviceScaleFactor: 1, timezoneId: 'UTC' });
    page.setDefaultTimeout(0);
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(String(e)));
    // Installed a little earlier, then paused at the instant (playwright's advice for a fixed now).
    await page.clock.install({ time: clock.now() - 60_000 });
    await page.clock.pauseAt(clock.now());
    await page.goto(`${srv.http}/${opts.realm ?? REALM}/user/points${token ? `#access_token=${token}` : ''}`);
    return { page, errors };
  }

  /** Time passes for the server, then for the page, whose timers due meanwhile fire. */
  async function advance(page: Page, ms: number): Promise<void> {
    clock.advance(ms);
    await page.clock.runFor(ms);
  }

  describe(`the points page at ${day.name}`, { skip: !hasChromium() && 'Debian chromium is not installed (.ci/run installs it)' }, () => {
    before(async () => {
      idp = await startIdp({ audience: AUD });
      srv = await startInProcess({ clock, config: { appleJwksUrl: idp.jwksUrl, appleIssuer: idp.issuer, loginRateLimit: 0 } });
      admin = api(srv.http, srv.adminKey);
      await createRealm(REALM, 'Shop');
      browser = await launchBrowser();
    });

    after(async () => {
      await browser?.close();
      await srv?.stop();
      await idp?.close();
    });

    it('shows each window as the summary API reports it, in plain words, and clears the token from the URL', async () => {
      const mappingId = await windowsProduct(REALM, 'pro', [
        { windowSeconds: 18000, limit: 10 },
        { windowSeconds: 604800, limit: 100 },
      ]);
      const user = await login('apple-sub-1', 'one@shop.example');
      assert.equal((await admin.post(`/api/bill/${REALM}/subscriptions`, { userId: user.userId, mappingId })).status, 200);
      assert.equal((await admin.post(`/api/points/${REALM}/users/${user.userId}/grants`, { kind: 'topup_credit', amount: 50 })).status, 200);
      assert.equal((await admin.post(`/api/points/${REALM}/consume`, { userId: user.userId, amount: 7 })).status, 200);

      const summary = (await admin.get(`/api/points/${REALM}/users/${user.userId}/summary`)).body;
      const { page, errors } = await openPage(user.accessToken);
      await page.waitForSelector('[data-testid="window"]');
      const rows = await page.$$eval('[data-testid="window"]', (els) =>
        els.map((e) => ({
          key: e.getAttribute('data-key'),
          kind: e.getAttribute('data-kind'),
          remaining: Number((e as HTMLElement).dataset.remaining),
          used: Number((e as HTMLElement).dataset.used),
          limit: Number((e as HTMLElement).dataset.limit),
          bar: (e.querySelector('.bar > span') as HTMLElement).style.width,
          recovery: e.querySelector('[data-testid="recovery"]')!.textContent,
          text: (e as HTMLElement).innerText,
        })),
      );
      assert.deepEqual(
        rows.map(({ key, kind, remaining, used, limit }) => ({ key, kind, remaining, used, limit })),
        summary.windows.map((w: any) => ({ key: w.key, kind: w.creditKind, remaining: w.remaining, used: w.used, limit: w.limit })),
      );
      assert.deepEqual(
        rows.map((r) => r.key),
        ['5h', 'week'],
      );
      assert.match(rows[0]!.text, /Subscription · 5-hour limit\s+3 of 10 left/);
      assert.equal(rows[0]!.bar, '30%', 'the bar shows what is left');
      assert.match(rows[0]!.recovery!, new RegExp(`^7 points back ${day.in5h} [^(]+ \\(in\u00a05\u00a0h\\)\\.$`));
      assert.match(rows[1]!.text, /Subscription · 7-day limit\s+93 of 100 left/);
      assert.match(rows[1]!.recovery!, /^7 points back on .+ at [^(]+\.$/, 'a date a week away, without a countdown');
      assert.equal(await page.textContent('[data-testid="total"]'), String(summary.total));
      assert.equal(await page.textContent('[data-balance="topup"]'), '50');
      assert.equal(await page.$('[data-balance="registration"]'), null, 'a zero balance is not listed');
      assert.doesNotMatch(await page.innerText('main'), /tightest/i);
      assert.ok(!page.url().includes('access_token'), 'the token is gone from the address bar');
      assert.equal(await page.evaluate(() => sessionStorage.getItem('gatehouse.points.token.shop') !== null), true);
      const fits = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
      assert.ok(fits, 'no horizontal scrolling on a phone');
      // A reload keeps working from sessionStorage.
      await page.reload();
      await page.waitForSelector('[data-testid="window"]');
      assert.deepEqual(errors, []);
      await page.close();
    });

    it('reads well on a phone and on a desktop: one recovery line per window, what the bars show, balances paying past the limits, no zero rows', async () => {
      const realm = 'show';
      await createRealm(realm, 'Show');
      assert.equal(
        (
          await admin.put(`/api/points/${realm}/default-config`, {
            registrationBonusPoints: 25,
            freePeriodicGrantPeriodType: 'monthly',
            freePeriodicQuotaWindows: [{ windowSeconds: 86400, limit: 20 }],
          })
        ).status,
        200,
      );
      const mappingId = await windowsProduct(realm, 'pro', [
        { windowSeconds: 18000, limit: 7 },
        { windowSeconds: 604800, limit: 100 },
      ]);
      const user = await login('apple-sub-show', 'show@shop.example', realm);
      // Two hours ago: subscribed and used 4; now: 3 more. The 5-hour limit is used up; its first 4
      // come back in 3 hours, all 7 in 5.
      clock.advance(-2 * 3600_000);
      assert.equal((await admin.post(`/api/bill/${realm}/subscriptions`, { userId: user.userId, mappingId })).status, 200);
      assert.equal((await admin.post(`/api/points/${realm}/consume`, { userId: user.userId, amount: 4 })).status, 200);
      clock.advance(2 * 3600_000);
      assert.equal((await admin.post(`/api/points/${realm}/consume`, { userId: user.userId, amount: 3 })).status, 200);
      assert.equal((await admin.post(`/api/points/${realm}/users/${user.userId}/grants`, { kind: 'topup_credit', amount: 50 })).status, 200);

      mkdirSync(join(ROOT, 'test-artifacts'), { recursive: true });
      for (const [name, viewport] of [
        ['phone', PHONE],
        ['desktop', DESKTOP],
      ] as const) {
        const { page, errors } = await openPage(user.accessToken, { viewport, realm });
        await page.waitForSelector('[data-testid="window"]');
        const text = await page.innerText('main');
        for (const line of [
          /^95 points you can use now$/m,
          /^20 within your usage limits, 75 from your balances$/m,
          /The bars show what is left\./,
          new RegExp(
            `Subscription · 5-hour limit\\s+0 of 7 left\\s+Used up\\. First points back ${day.in3h} [^(]+ \\(in\\s3\\sh\\), all 7 back ${day.by5h} [^.]+\\.`,
          ),
          /Subscription · 7-day limit\s+93 of 100 left\s+First points back on .+ at [^(]+, all 7 back by .+\./,
          /Free plan · 24-hour limit\s+20 of 20 left\s+Nothing used in the last 24 hours\./,
          /When a limit is used up, your balances still pay: 75 points right now\./,
          /Top-up\s+50/,
          /Welcome bonus · never expires\s+25/,
          /Points that expire soonest are used first\./,
        ])
          assert.match(text, line, `${name}:\n${text}`);
        assert.doesNotMatch(text, /tightest|Extra points|Subscription points|Free points|no balance/i, `${name}: jargon or a zero row:\n${text}`);
        if (name === 'phone') {
          const overflow = await page.evaluate(() => ({
            page: document.documentElement.scrollWidth,
            view: window.innerWidth,
            wide: [...document.querySelectorAll('main *')]
              .filter((e) => e.getBoundingClientRect().right > window.innerWidth)
              .map((e) => e.outerHTML.slice(0, 80)),
          }));
          assert.ok(overflow.page <= overflow.view && overflow.wide.length === 0, `nothing wider than the phone: ${JSON.stringify(overflow)}`);
        }
        await page.screenshot({ path: join(ROOT, 'test-artifacts', `user-points-${name}.png`), fullPage: true });
        assert.deepEqual(errors, []);
        await page.close();
      }
    });

    it('says when an exhausted window returns and refreshes itself when that time passes', async () => {
      const mappingId = await windowsProduct(REALM, 'burst', [{ windowSeconds: 3, limit: 2 }]);
      const user = await login('apple-sub-2', 'two@shop.example');
      await admin.post(`/api/bill/${REALM}/subscriptions`, { userId: user.userId, mappingId });
      assert.equal((await admin.post(`/api/points/${REALM}/consume`, { userId: user.userId, amount: 2 })).status, 200);
      const { page, errors } = await openPage(user.accessToken);
      await page.waitForSelector('.window.exhausted');
      assert.match((await page.textContent('.window.exhausted [data-testid="recovery"]'))!, /^Used up\. 2 points back at [^(]+ \(in\s3\ss\)\.$/);
      // No reload by the test: once the recovery time has passed the page fetches again by itself.
      await advance(page, 3_500);
      await page.waitForSelector('[data-testid="window"][data-remaining="2"]');
      assert.equal(await page.$('.window.exhausted'), null);
      assert.deepEqual(errors, []);
      await page.close();
    });

    it('shows the points set aside and the ten newest movements as the history API lists them', async () => {
      const user = await login('apple-sub-6', 'six@shop.example');
      // A second apart, so newest-first is one order (a paused clock would give all one instant).
      const post = async (path: string, body: object) => {
        clock.advance(1000);
        const r = await admin.post(`/api/points/${REALM}/${path}`, body);
        assert.equal(r.status, 200, r.text);
        return r.body;
      };
      await post(`users/${user.userId}/grants`, { kind: 'topup_credit', amount: 50 });
      await post('consume', { userId: user.userId, amount: 5, description: 'Chat answer' });
      for (let i = 0; i < 8; i++) await post('consume', { userId: user.userId, amount: 1 });
      const held = await post('holds', { userId: user.userId, amount: 10, description: 'Image render', ttlSeconds: 3600 });
      const history = (await admin.get(`/api/points/${REALM}/users/${user.userId}/transactions?pageSize=10`)).body.transactions;
      const summary = (await admin.get(`/api/points/${REALM}/users/${user.userId}/summary`)).body;
      assert.equal(summary.held, 10);

      const { page, errors } = await openPage(user.accessToken);
      await page.waitForSelector('[data-testid="move"]');
      const moves = await page.$$eval('[data-testid="move"]', (els) =>
        els.map((e) => ({ kind: e.getAttribute('data-kind'), amount: Number(e.getAttribute('data-amount')), text: (e as HTMLElement).innerText })),
      );
      assert.deepEqual(
        moves.map(({ kind, amount }) => ({ kind, amount })),
        history.map((t: any) => ({ kind: t.kind, amount: t.amount })),
      );
      assert.equal(moves.length, 10, 'the ten newest only');
      assert.equal(history[0].transactionId, held.holdId);
      assert.match(moves[0]!.text, /^Set aside\s+10 points\s+today at .+\s+Image render$/);
      assert.match(moves[9]!.text, /^Used\s+5 points\s+today at .+\s+Chat answer$/);
      assert.match(moves[1]!.text, /^Used\s+1 point\s+today at [^\n]+$/, 'no detail line without a description');

      assert.equal(await page.isVisible('#held-section'), true);
      const holds = await page.$$eval('[data-testid="hold"]', (els) => els.map((e) => [e.getAttribute('data-amount'), (e as HTMLElement).innerText]));
      assert.equal(holds.length, 1);
      assert.equal(holds[0]![0], '10');
      assert.match(holds[0]![1]!, new RegExp(`^10 points\\s+returned ${day.by1h} [^\\n]+ unless used$`));
      assert.equal(await page.textContent('[data-testid="total"]'), String(summary.total), 'the total leaves the held points out');
      assert.equal(summary.total, 27);
      const text = await page.innerText('main');
      assert.match(text, /Set aside\s+Points set aside for something still in progress\./);
      assert.match(text, /Recent activity/);
      assert.doesNotMatch(text, /consume|settle|hold_|ptx_|hld_/, 'no API words or ids');
      const fits = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
      assert.ok(fits, 'no horizontal scrolling on a phone');
      mkdirSync(join(ROOT, 'test-artifacts'), { recursive: true });
      await page.screenshot({ path: join(ROOT, 'test-artifacts', 'user-points-activity-phone.png'), fullPage: true });
      assert.deepEqual(errors, []);
      await page.close();
    });

    it('gives the points of a hold back on screen when its time runs out, without a reload', async () => {
      const user = await login('apple-sub-7', 'seven@shop.example');
      assert.equal((await admin.post(`/api/points/${REALM}/users/${user.userId}/grants`, { kind: 'granted_credit', amount: 20 })).status, 200);
      assert.equal((await admin.post(`/api/points/${REALM}/holds`, { userId: user.userId, amount: 8, ttlSeconds: 60 })).status, 200);
      const { page, errors } = await openPage(user.accessToken);
      await page.waitForSelector('[data-testid="hold"]');
      assert.equal(await page.textContent('[data-testid="total"]'), '12');
      // No reload by the test: once the hold's time has passed the page fetches again by itself.
      await advance(page, 61_000);
      await page.waitForSelector('#held-section[hidden]', { state: 'attached' });
      assert.equal(await page.textContent('[data-testid="total"]'), '20');
      const newest = await page.$eval('[data-testid="move"]', (e) => [e.getAttribute('data-kind'), (e as HTMLElement).innerText]);
      assert.equal(newest[0], 'expire');
      assert.match(newest[1]!, /^Returned, time ran out\s+8 points\s+today at /);
      assert.deepEqual(errors, []);
      await page.close();
    });

    it('shows balances and no window rows for a user without a quota entitlement', async () => {
      const user = await login('apple-sub-3', 'three@shop.example');
      await admin.post(`/api/points/${REALM}/users/${user.userId}/grants`, { kind: 'granted_credit', amount: 12 });
      const { page, errors } = await openPage(user.accessToken);
      await page.waitForSelector('#summary:not([hidden])');
      assert.equal(await page.isVisible('#windows-section'), false);
      assert.equal(await page.$$eval('[data-testid="window"]', (e) => e.length), 0);
      assert.equal(await page.textContent('[data-balance="granted"]'), '12');
      assert.equal(await page.isVisible('[data-testid="split"]'), false);
      assert.deepEqual(errors, []);
      await page.close();
    });

    it('asks to open the page from the app when there is no token, and shows no data', async () => {
      const { page, errors } = await openPage(null);
      await page.waitForFunction(() => document.getElementById('status')!.textContent!.includes('Open this page from the app'));
      assert.equal(await page.isVisible('#summary'), false);
      assert.deepEqual(errors, []);
      await page.close();
    });

    it('says the session expired for an expired token, shows no data and forgets the token', async () => {
      clock.advance(-2 * 3600_000); // the token is issued two hours ago, so it is long expired now
      const user = await login('apple-sub-4', 'four@shop.example');
      clock.advance(2 * 3600_000);
      const direct = await api(srv.http).get(`/api/points/${REALM}/me`, undefined, { key: user.accessToken });
      assert.equal(direct.status, 401, 'the server refuses it too');
      const { page, errors } = await openPage(user.accessToken);
      await page.waitForFunction(() => document.getElementById('status')!.textContent!.includes('session has expired'));
      assert.equal(await page.isVisible('#summary'), false);
      assert.equal(await page.evaluate(() => sessionStorage.getItem('gatehouse.points.token.shop')), null);
      assert.deepEqual(errors, []);
      await page.close();
    });
  });
}
