// Issue 9: the user's points page in a real browser (Debian Chromium via playwright-core): rows
// checked against the summary API, the no-window case, missing and expired tokens, a phone-sized
// viewport, no console errors, and a refresh when a recovery time passes. A screenshot is kept in
// test-artifacts/ (not committed).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startInProcess, ROOT, type InProcessServer } from '../helpers/server.ts';
import { startIdp, type TestIdp } from '../helpers/idp.ts';
import { api } from '../helpers/http.ts';
import { hasChromium, launchBrowser } from '../helpers/browser.ts';

const REALM = 'shop';
const AUD = 'com.shop.app';
/** Real time plus an offset the test can move (the browser keeps real time). */
const clock = { offset: 0, now: () => Date.now() + clock.offset };

let srv: InProcessServer;
let idp: TestIdp;
let browser: Browser;
let admin: ReturnType<typeof api>;

async function login(sub: string, email: string): Promise<{ userId: string; accessToken: string }> {
  const token = await idp.token({ sub, email }, { now: Math.floor(clock.now() / 1000) });
  const res = await api(srv.http).post(`/api/oauth/${REALM}/apple/native-login`, { identityToken: token, clientId: 'app' });
  assert.equal(res.status, 200, res.text);
  return res.body as { userId: string; accessToken: string };
}

async function openPage(token: string | null): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1 });
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${srv.http}/${REALM}/user/points${token ? `#access_token=${token}` : ''}`);
  return { page, errors };
}

before(async () => {
  idp = await startIdp({ audience: AUD });
  srv = await startInProcess({ clock, config: { appleJwksUrl: idp.jwksUrl, appleIssuer: idp.issuer, loginRateLimit: 0 } });
  admin = api(srv.http, srv.adminKey);
  for (const [path, body] of [
    ['/api/admin/realms', { id: REALM, name: 'Shop' }],
    [`/api/admin/realms/${REALM}/clients`, { clientId: 'app', name: 'App', type: 'first_party', redirectUris: [] }],
  ] as const) assert.equal((await admin.post(path, body)).status, 200);
  assert.equal((await admin.put(`/api/admin/realms/${REALM}/providers/apple`, { clientId: AUD, enabled: true })).status, 200);
  if (hasChromium()) browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await srv.stop();
  await idp.close();
});

describe('the points page', { skip: !hasChromium() && 'Debian chromium is not installed (.ci/run installs it)' }, () => {
  it('shows each window as the summary API reports it, marks the tightest, and clears the token from the URL', async () => {
    const batch = await admin.put(`/api/bill/${REALM}/entitlement-mappings/batch`, {
      paymentProvider: 'appstore',
      externalProductId: 'pro',
      updates: [{ entitlementKey: 'pro', billingType: 'recurring', billingPeriod: 'monthly', pointsPerPeriod: 0, grantPeriodType: 'monthly', validityDays: 0, grantOnSubscribe: true, maxPeriods: 0, enabled: true, quotaWindows: [{ windowSeconds: 18000, limit: 10 }, { windowSeconds: 604800, limit: 100 }] }],
    });
    assert.equal(batch.status, 200, batch.text);
    const user = await login('apple-sub-1', 'one@shop.example');
    assert.equal((await admin.post(`/api/bill/${REALM}/subscriptions`, { userId: user.userId, mappingId: batch.body.mappings[0].mappingId })).status, 200);
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
        tightest: !!e.querySelector('[data-testid="tightest"]'),
        recovery: e.querySelector('[data-testid="recovery"]')!.textContent,
        text: (e as HTMLElement).innerText,
      })),
    );
    assert.deepEqual(
      rows.map(({ key, kind, remaining, used, limit, tightest }) => ({ key, kind, remaining, used, limit, tightest })),
      summary.windows.map((w: any) => ({ key: w.key, kind: w.creditKind, remaining: w.remaining, used: w.used, limit: w.limit, tightest: w.isTightest })),
    );
    assert.deepEqual(rows.map((r) => r.key), ['5h', 'week']);
    assert.ok(rows[0]!.tightest && !rows[1]!.tightest);
    assert.match(rows[0]!.text, /3 of 10 left · 7 used/);
    assert.match(rows[0]!.recovery!, /in 4 h 59 min|in 5 h/);
    assert.match(rows[1]!.recovery!, /in 6 d|in 7 d/);
    assert.equal(await page.textContent('[data-testid="total"]'), String(summary.total));
    assert.equal(await page.textContent('[data-balance="topup"]'), '50');
    assert.ok(!page.url().includes('access_token'), 'the token is gone from the address bar');
    assert.equal(await page.evaluate(() => sessionStorage.getItem('gatehouse.points.token.shop') !== null), true);
    const fits = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    assert.ok(fits, 'no horizontal scrolling on a phone');
    mkdirSync(join(ROOT, 'test-artifacts'), { recursive: true });
    await page.screenshot({ path: join(ROOT, 'test-artifacts', 'user-points.png'), fullPage: true });
    // A reload keeps working from sessionStorage.
    await page.reload();
    await page.waitForSelector('[data-testid="window"]');
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('says when an exhausted window returns and refreshes itself when that time passes', async () => {
    const batch = await admin.put(`/api/bill/${REALM}/entitlement-mappings/batch`, {
      paymentProvider: 'appstore',
      externalProductId: 'burst',
      updates: [{ entitlementKey: 'burst', billingType: 'recurring', billingPeriod: 'monthly', pointsPerPeriod: 0, grantPeriodType: 'monthly', validityDays: 0, grantOnSubscribe: true, maxPeriods: 0, enabled: true, quotaWindows: [{ windowSeconds: 3, limit: 2 }] }],
    });
    const user = await login('apple-sub-2', 'two@shop.example');
    await admin.post(`/api/bill/${REALM}/subscriptions`, { userId: user.userId, mappingId: batch.body.mappings[0].mappingId });
    assert.equal((await admin.post(`/api/points/${REALM}/consume`, { userId: user.userId, amount: 2 })).status, 200);
    const { page, errors } = await openPage(user.accessToken);
    await page.waitForSelector('.window.exhausted');
    assert.match((await page.textContent('.window.exhausted [data-testid="recovery"]'))!, /Limit reached — quota returns in \d s/);
    // No reload by the test: the page fetches again once the recovery time has passed.
    await page.waitForSelector('[data-testid="window"][data-remaining="2"]', { timeout: 10_000 });
    assert.equal(await page.$('.window.exhausted'), null);
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
    clock.offset = -2 * 3600_000; // the token is issued two hours ago, so it is long expired now
    const user = await login('apple-sub-4', 'four@shop.example');
    clock.offset = 0;
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
