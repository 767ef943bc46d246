// The admin console in a real browser (Debian Chromium via playwright-core), driven as an operator
// would: sign in with an API key, edit the realm default's windows and a mapping's, find a user by
// email, grant and refund, release, delete, test a webhook against a local receiver, read the
// audit log. Every figure is checked against the HTTP API. Security: the key only ever travels as
// the X-API-Key header, API text is inserted as text, and no other origin may frame a page.
// Screenshots at phone and desktop widths are kept in test-artifacts/ (not committed).

import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page, Request } from 'playwright-core';
import { hasChromium, launchBrowser } from '../helpers/browser.ts';
import { api } from '../helpers/http.ts';
import { type InProcessServer, ROOT, startInProcess } from '../helpers/server.ts';

describe('the admin console in a browser', () => {
  const REALM = 'shop';
  const PHONE = { width: 390, height: 844 };
  const DESKTOP = { width: 1280, height: 800 };
  const ARTIFACTS = join(ROOT, 'test-artifacts');

  let srv: InProcessServer;
  let browser: Browser;
  let admin: ReturnType<typeof api>;

  interface Opened {
    page: Page;
    errors: string[];
    requests: Request[];
  }

  async function open(path: string, viewport = DESKTOP): Promise<Opened> {
    const page = await browser.newPage({ viewport, deviceScaleFactor: 1 });
    page.setDefaultTimeout(10_000);
    const errors: string[] = [];
    const requests: Request[] = [];
    // A refusal the test asks for is logged by Chromium as a failed load; scripts' errors are not.
    page.on('console', (m) => m.type() === 'error' && !m.text().startsWith('Failed to load resource') && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('request', (r) => requests.push(r));
    await page.goto(`${srv.http}/${REALM}/manage/${path}`);
    return { page, errors, requests };
  }

  /** Opens a page and signs in with `key` through the form, as an operator would. */
  async function signedIn(path: string, key = srv.adminKey, viewport = DESKTOP): Promise<Opened> {
    const opened = await open(path, viewport);
    await opened.page.getByLabel('API key').fill(key);
    await opened.page.getByLabel('API key').press('Enter');
    await opened.page.getByTestId('who').waitFor();
    return opened;
  }

  async function newKey(permissions: string[], realm = REALM): Promise<{ id: string; key: string }> {
    const res = await admin.post('/api/admin/api-keys', { realm, permissions, name: 'console test' });
    assert.equal(res.status, 200, res.text);
    return res.body as { id: string; key: string };
  }

  /** The page fits the phone's width and the desktop's (the one it has first, then the other), each
   *  kept as a screenshot. */
  async function assertFitsBoth(page: Page, name: string): Promise<void> {
    const first = page.viewportSize()!.width === PHONE.width ? 'phone' : 'desktop';
    await assertFits(page, `${name}-${first}`);
    await page.setViewportSize(first === 'phone' ? DESKTOP : PHONE);
    await assertFits(page, `${name}-${first === 'phone' ? 'desktop' : 'phone'}`);
  }

  /** The page fits its width: nothing scrolls sideways but a table's own box. */
  async function assertFits(page: Page, name: string): Promise<void> {
    const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
    assert.ok(widths.scroll <= widths.client, `${name}: ${widths.scroll} > ${widths.client}`);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, `console-${name}.png`), fullPage: true });
  }

  before(async () => {
    srv = await startInProcess({ config: { loginRateLimit: 0 } });
    admin = api(srv.http, srv.adminKey);
    assert.equal((await admin.post('/api/admin/realms', { id: REALM, name: 'Shop' })).status, 200);
    if (hasChromium()) browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await srv.stop();
  });

  describe('the admin console', { skip: !hasChromium() && 'Debian chromium is not installed (.ci/run installs it)' }, () => {
    it('edits the realm default windows: add, reorder, remove, an invalid value refused with the API message, saved as the API then shows', async () => {
      const { page, errors } = await signedIn('points/default-config');
      const editor = page.getByTestId('windows-editor');
      await page.getByTestId('add-window').click();
      await page.getByLabel('Window 1 length in seconds').fill('3600');
      await page.getByLabel('Window 1 limit').fill('10');
      await page.getByTestId('add-window').click();
      await page.getByLabel('Window 2 length in seconds').fill('86400');
      await page.getByLabel('Window 2 limit').fill('-1');
      await page.getByTestId('add-window').click();
      await page.getByLabel('Window 3 length in seconds').fill('60');
      await page.getByLabel('Window 3 limit').fill('1');
      await page.getByRole('button', { name: 'Save' }).click();

      // The API's own message, next to the field it names; nothing saved.
      const refusal = await admin.put(`/api/points/${REALM}/default-config`, { freePeriodicQuotaWindows: [{ windowSeconds: 86400, limit: -1 }] });
      assert.equal(refusal.status, 400);
      const message = String(refusal.body.message).replace('[0]', '[1]');
      const alert = page.getByRole('alert');
      await alert.waitFor();
      assert.equal(await alert.textContent(), message);
      assert.equal(await page.getByLabel('Window 2 limit').getAttribute('aria-invalid'), 'true');
      assert.equal((await admin.get(`/api/points/${REALM}/default-config`)).body.freePeriodicQuotaWindows, null);

      await page.getByLabel('Window 2 limit').fill('50');
      await page.getByRole('button', { name: 'Move window 3 up' }).click();
      await page.getByRole('button', { name: 'Move window 2 up' }).click(); // the 60 s row is first now
      await page.getByRole('button', { name: 'Remove window 3' }).click(); // the day row goes
      assert.equal(await editor.getByTestId('window-row').count(), 2);
      await page.getByLabel('Registration bonus (points)').fill('25');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Saved.').waitFor();

      const saved = (await admin.get(`/api/points/${REALM}/default-config`)).body;
      assert.deepEqual(saved.freePeriodicQuotaWindows, [
        { windowSeconds: 60, limit: 1 },
        { windowSeconds: 3600, limit: 10 },
      ]);
      assert.equal(saved.registrationBonusPoints, 25);
      assert.equal(await page.getByLabel('Window 1 length in seconds').inputValue(), '60');
      await assertFitsBoth(page, 'default-config');
      assert.deepEqual(errors, []);
      await page.close();
    });

    it('saves the windows of a price row from its advanced configuration, asks before disabling, shows the 409 count, and disables once nothing is active', async () => {
      const batch = await admin.put(`/api/bill/${REALM}/entitlement-mappings/batch`, {
        paymentProvider: 'app_store',
        externalProductId: 'pro.monthly',
        updates: [
          {
            entitlementKey: 'pro',
            billingType: 'recurring',
            billingPeriod: 'monthly',
            pointsPerPeriod: 100,
            grantPeriodType: 'monthly',
            validityDays: 0,
            grantOnSubscribe: true,
            maxPeriods: 0,
            enabled: true,
          },
        ],
      });
      assert.equal(batch.status, 200, batch.text);
      const mappingId = batch.body.mappings[0].mappingId as string;
      const user = await admin.post(`/api/admin/realms/${REALM}/users`, { email: 'subscriber@shop.example', emailVerified: true });
      assert.equal(user.status, 200, user.text);
      const sub = await admin.post(`/api/bill/${REALM}/subscriptions`, { userId: user.body.id, mappingId });
      assert.equal(sub.status, 200, sub.text);

      const { page, errors } = await signedIn('billing/entitlement-mappings');
      const group = page.locator('[data-testid="mapping-group"][data-provider="app_store"][data-product="pro.monthly"]');
      const row = group.locator(`[data-testid="mapping"][data-mapping-id="${mappingId}"]`);
      assert.equal(await row.getByTestId('active-subscriptions').textContent(), 'Active subscriptions: 1');
      await row.getByText('Advanced configuration').click();
      await row.getByTestId('add-window').click();
      await row.getByLabel('Window 1 length in seconds').fill('18000');
      await row.getByLabel('Window 1 limit').fill('10');
      await row.getByTestId('add-window').click();
      await row.getByLabel('Window 2 length in seconds').fill('18000');
      await row.getByLabel('Window 2 limit').fill('20');
      await row.getByRole('button', { name: 'Save' }).click();
      // The API's own refusal of a duplicate length, at the row it names.
      await row.getByRole('alert').waitFor();
      assert.equal(
        await row.getByRole('alert').textContent(),
        'updates[0].quotaWindows[1].windowSeconds: duplicate window length 18000 (same as updates[0].quotaWindows[0])',
      );
      await row.getByLabel('Window 2 length in seconds').fill('604800');
      await row.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Mapping saved.').waitFor();
      const listed = async () =>
        (await admin.get(`/api/bill/${REALM}/entitlement-mappings?paymentProvider=app_store`)).body.mappings.find((m: any) => m.mappingId === mappingId);
      assert.deepEqual((await listed()).quotaWindows, [
        { windowSeconds: 18000, limit: 10 },
        { windowSeconds: 604800, limit: 20 },
      ]);

      // Disabling asks first; Escape backs out and nothing is sent.
      const fresh = group.locator(`[data-testid="mapping"][data-mapping-id="${mappingId}"]`);
      await fresh.getByLabel('Enabled').uncheck();
      const batches: string[] = [];
      page.on('request', (r) => r.url().endsWith('/entitlement-mappings/batch') && batches.push(r.method()));
      await fresh.getByRole('button', { name: 'Save' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Cancel');
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Disable');
      await page.keyboard.press('Tab'); // focus wraps inside the modal dialog
      assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Cancel');
      await page.keyboard.press('Shift+Tab');
      assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Disable');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      assert.deepEqual(batches, []);
      // The focus is back where the operator was.
      assert.ok(await fresh.getByRole('button', { name: 'Save' }).evaluate((button) => button === document.activeElement));

      // Confirmed: refused with the count, next to the switch, nothing saved.
      await fresh.getByRole('button', { name: 'Save' }).click();
      await dialog.getByRole('button', { name: 'Disable' }).click();
      const refused = fresh.getByTestId('mapping-in-use');
      await refused.waitFor();
      assert.match((await refused.textContent())!, /\(activeSubscriptions: 1\)$/);
      assert.equal(await fresh.getByLabel('Enabled').getAttribute('aria-invalid'), 'true');
      assert.equal((await listed()).enabled, true);

      assert.equal((await admin.post(`/api/bill/${REALM}/subscriptions/${sub.body.subscriptionId}/cancel`, {})).status, 200);
      await fresh.getByRole('button', { name: 'Save' }).click();
      await dialog.getByRole('button', { name: 'Disable' }).click();
      await page.getByText('Mapping saved.').waitFor();
      assert.equal((await listed()).enabled, false);
      await assertFitsBoth(page, 'mappings');
      assert.deepEqual(errors, []);
      await page.close();
    });

    it('finds a user by email and shows the summary; a grant, a refund and a release are reflected; API text is shown as text; delete asks, then the user is gone', async () => {
      const created = await admin.post(`/api/admin/realms/${REALM}/users`, { email: 'ada@shop.example', emailVerified: true });
      const userId = created.body.id as string;
      const attack = '<img src=x onerror="window.__pwned=1">';
      const consume = await (async () => {
        assert.equal((await admin.post(`/api/points/${REALM}/users/${userId}/grants`, { kind: 'topup_credit', amount: 40 })).status, 200);
        const res = await admin.post(`/api/points/${REALM}/consume`, { userId, amount: 15, description: attack });
        assert.equal(res.status, 200, res.text);
        return res.body;
      })();
      const hold = await admin.post(`/api/points/${REALM}/holds`, { userId, amount: 5 });
      assert.equal(hold.status, 200, hold.text);
      const summary = async () => (await admin.get(`/api/points/${REALM}/users/${userId}/summary`)).body;

      const { page, errors } = await signedIn('users', srv.adminKey, PHONE);
      await page.getByLabel('User id or email').fill('nobody@shop.example');
      await page.getByLabel('User id or email').press('Enter');
      assert.equal(await page.getByRole('alert').textContent(), 'No user with the email nobody@shop.example');
      await page.getByLabel('User id or email').fill('ada@shop.example');
      await page.getByLabel('User id or email').press('Enter');
      await page.getByTestId('summary').waitFor();
      assert.equal(await page.getByTestId('user-id').textContent(), userId);
      const total = () => page.getByTestId('summary').getByTestId('total').textContent();
      assert.equal(await total(), String((await summary()).total));
      assert.equal(await page.getByTestId('held').textContent(), '5');
      // Every window as the summary API reports it (the realm default's windows, granted at sign-up).
      const windows = (await summary()).windows;
      assert.ok(windows.length > 0);
      assert.deepEqual(
        await page.getByTestId('window').evaluateAll((rows) =>
          rows.map((r) => ({
            kind: r.getAttribute('data-kind'),
            key: r.getAttribute('data-key'),
            limit: r.querySelector('[data-testid="limit"]')!.textContent,
            used: r.querySelector('[data-testid="used"]')!.textContent,
            remaining: r.querySelector('[data-testid="remaining"]')!.textContent,
            recovery: r.querySelector('[data-label="Next recovery"] time')?.getAttribute('datetime') ?? null,
          })),
        ),
        windows.map((w: any) => ({
          kind: w.creditKind,
          key: w.key,
          limit: String(w.limit),
          used: String(w.used),
          remaining: String(w.remaining),
          recovery: w.nextRecoveryAt,
        })),
      );

      // The description is text: no element made of it, no script run.
      const description = page.locator(`[data-testid="transaction"][data-transaction-id="${consume.transactionId}"] [data-testid="description"]`);
      assert.equal(await description.textContent(), attack);
      assert.equal(await description.locator('img').count(), 0);
      assert.equal(await page.evaluate(() => (window as any).__pwned), undefined);

      await page.getByLabel('Kind').first().selectOption('granted_credit');
      await page.getByTestId('grant').getByLabel('Amount').fill('0');
      await page.getByRole('button', { name: 'Grant' }).click();
      const grantRefusal = await admin.post(`/api/points/${REALM}/users/${userId}/grants`, { kind: 'granted_credit', amount: 0 });
      assert.equal(await page.getByTestId('grant').getByRole('alert').textContent(), grantRefusal.body.message);
      await page.getByTestId('grant').getByLabel('Amount').fill('30');
      await page.getByRole('button', { name: 'Grant' }).click();
      await page.getByText('Granted 30 points.').waitFor();
      assert.equal((await summary()).balances.granted, 30);
      assert.equal(await total(), String((await summary()).total));
      assert.equal(await page.getByTestId('granted').textContent(), '30');

      await page.locator(`[data-testid="transaction"][data-transaction-id="${consume.transactionId}"]`).getByRole('button', { name: 'Refund…' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Amount').fill('99');
      await dialog.getByRole('button', { name: 'Refund' }).click();
      await dialog.getByRole('alert').waitFor(); // refused: more than is refundable, shown in the dialog
      assert.match((await dialog.getByRole('alert').textContent())!, /refund/i);
      await dialog.getByLabel('Amount').fill('6');
      await dialog.getByRole('button', { name: 'Refund' }).click();
      await page.getByText('Refunded 6 points.').waitFor();
      await dialog.waitFor({ state: 'detached' });
      assert.equal(await total(), String((await summary()).total));
      await page.locator('[data-testid="transaction"][data-kind="refund"]').first().waitFor();

      await page.locator(`[data-testid="hold"][data-hold-id="${hold.body.holdId}"]`).getByRole('button', { name: 'Release…' }).click();
      await dialog.getByRole('button', { name: 'Release' }).click();
      await page.getByText('Hold released.').waitFor();
      assert.equal((await summary()).held, 0);
      assert.equal(await page.getByTestId('held').textContent(), '0');
      await assertFitsBoth(page, 'users');

      await page.getByRole('button', { name: 'Delete user…' }).click();
      await dialog.getByRole('button', { name: 'Delete' }).click();
      await page.getByTestId('deleted').waitFor();
      assert.equal((await admin.get(`/api/admin/realms/${REALM}/users/${userId}`)).status, 404);
      assert.deepEqual(errors, []);
      await page.close();
    });

    it('sends a webhook test to a local receiver, shows its delivery and attempts, and redelivers it', async () => {
      const received: Array<{ id: string; body: any }> = [];
      const receiver: Server = createServer((req, res) => {
        let body = '';
        req.on('data', (c) => (body += c));
        req.on('end', () => {
          received.push({ id: String(req.headers['webhook-id']), body: JSON.parse(body) });
          res.writeHead(204).end();
        });
      });
      await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      try {
        const { page, errors } = await signedIn('webhooks');
        const form = page.getByTestId('new-webhook');
        await form.getByLabel('URL').fill('http://hooks.example/in');
        await form.getByRole('button', { name: 'Add endpoint' }).click();
        const refusal = await admin.post(`/api/admin/realms/${REALM}/webhooks`, { url: 'http://hooks.example/in', eventTypes: ['*'] });
        assert.equal(refusal.status, 400);
        assert.equal(await form.getByRole('alert').textContent(), refusal.body.message);
        await form.getByLabel('URL').fill(url);
        await form.getByLabel('Event types').fill('webhook.test');
        await form.getByRole('button', { name: 'Add endpoint' }).click();
        await page.getByTestId('secret').waitFor();
        const { webhooks } = (await admin.get(`/api/admin/realms/${REALM}/webhooks`)).body;
        const hook = webhooks.find((w: any) => w.url === url);
        assert.ok(hook);
        assert.match((await page.getByTestId('secret').textContent())!, /whsec_/);

        const card = page.locator(`[data-testid="webhook"][data-webhook-id="${hook.id}"]`);
        await card.getByRole('button', { name: 'Send test event' }).click();
        await page.getByText('Test event queued.').waitFor();
        await srv.running.app.jobs.runOnce();
        await card.getByRole('button', { name: 'Refresh' }).click();
        const delivery = card.locator('[data-testid="delivery"][data-status="delivered"]');
        await delivery.waitFor();
        assert.equal(received.length, 1);
        assert.equal(received[0]!.body.type, 'webhook.test');
        assert.equal(await delivery.getAttribute('data-event-type'), 'webhook.test');
        assert.match((await delivery.getByTestId('attempt').first().textContent())!, /HTTP 204/);

        await delivery.getByRole('button', { name: 'Redeliver' }).click();
        await page.getByText('Redelivery queued.').waitFor();
        await srv.running.app.jobs.runOnce();
        await card.getByRole('button', { name: 'Refresh' }).click();
        await card.locator('[data-testid="attempt"]').nth(1).waitFor();
        assert.equal(received.length, 2);
        assert.equal(received[1]!.id, received[0]!.id); // the same event, so receivers dedupe it
        await assertFitsBoth(page, 'webhooks');
        assert.deepEqual(errors, []);
        await page.close();
      } finally {
        receiver.closeAllConnections();
        await new Promise((r) => receiver.close(r));
      }
    });

    it('lists the audit log newest first and filters it by action', async () => {
      const { page, errors } = await signedIn('audit', srv.adminKey, PHONE);
      const api_ = (await admin.get(`/api/admin/realms/${REALM}/audit?pageSize=25`)).body.records;
      assert.ok(api_.length > 0);
      await page.getByTestId('record').first().waitFor();
      assert.deepEqual(
        await page.getByTestId('record').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-action'))),
        api_.map((r: any) => r.action),
      );
      // Filtered by the action of the oldest record listed (the earlier tests wrote several kinds).
      const action = api_.at(-1).action as string;
      await page.getByLabel('Action').fill(action);
      await page.getByLabel('Action').press('Enter');
      const filtered = (await admin.get(`/api/admin/realms/${REALM}/audit?pageSize=25&action=${encodeURIComponent(action)}`)).body.records;
      assert.ok(filtered.length > 0 && filtered.length < api_.length);
      await page.waitForFunction((n) => document.querySelectorAll('[data-testid="record"]').length === n, filtered.length);
      assert.deepEqual(await page.getByTestId('record').evaluateAll((rows) => [...new Set(rows.map((r) => r.getAttribute('data-action')))]), [action]);
      await page.getByLabel('Since').fill('2999-01-01T00:00');
      await page.getByLabel('Since').press('Enter');
      await page.getByText('No records.').waitFor();
      await assertFitsBoth(page, 'audit');
      assert.deepEqual(errors, []);
      await page.close();
    });

    it('pages through the history of a user as the API pages it, and filters it by kind', async () => {
      const created = await admin.post(`/api/admin/realms/${REALM}/users`, { email: 'pages@shop.example', emailVerified: true });
      const userId = created.body.id as string;
      for (let i = 1; i <= 23; i++)
        assert.equal((await admin.post(`/api/points/${REALM}/users/${userId}/grants`, { kind: 'granted_credit', amount: i })).status, 200);
      assert.equal((await admin.post(`/api/points/${REALM}/consume`, { userId, amount: 2 })).status, 200);
      const history = async (query: string) =>
        (await admin.get(`/api/points/${REALM}/users/${userId}/transactions?pageSize=20${query}`)).body as {
          transactions: Array<{ transactionId: string }>;
          nextPageToken: string;
        };
      const first = await history('');
      const second = await history(`&pageToken=${encodeURIComponent(first.nextPageToken)}`);
      const shown = () => page.getByTestId('transaction').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-transaction-id')));
      const ids = (p: { transactions: Array<{ transactionId: string }> }) => p.transactions.map((t) => t.transactionId);

      const { page, errors } = await signedIn('users');
      await page.getByLabel('User id or email').fill(userId);
      await page.getByLabel('User id or email').press('Enter');
      await page.getByTestId('transaction').first().waitFor();
      assert.deepEqual(await shown(), ids(first));
      const history_ = page.getByTestId('history');
      assert.equal(await history_.getByRole('button', { name: 'Newer' }).isDisabled(), true);
      await history_.getByRole('button', { name: 'Older' }).click();
      await page.waitForFunction((n) => document.querySelectorAll('[data-testid="transaction"]').length === n, second.transactions.length);
      assert.deepEqual(await shown(), ids(second));
      assert.equal(await history_.getByRole('button', { name: 'Older' }).isDisabled(), !second.nextPageToken);
      await history_.getByRole('button', { name: 'Newer' }).click();
      await page.waitForFunction((n) => document.querySelectorAll('[data-testid="transaction"]').length === n, first.transactions.length);
      assert.deepEqual(await shown(), ids(first));

      await history_.getByLabel('Kind').selectOption('consume');
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="transaction"]').length === 1);
      assert.deepEqual(await shown(), ids(await history('&kind=consume')));
      assert.deepEqual(errors, []);
      await page.close();
    });

    it('shows what a key may not do as disabled, and a key of another realm can do nothing here', async () => {
      const viewer = await newKey(['settings.view', 'points.view', 'users.manage']);
      const config = await signedIn('points/default-config', viewer.key);
      await config.page.getByTestId('default-config').waitFor();
      assert.equal(await config.page.getByRole('button', { name: 'Save' }).isDisabled(), true);
      assert.equal(await config.page.getByTestId('add-window').isDisabled(), true);
      assert.match((await config.page.getByTestId('needs').first().textContent())!, /settings\.manage/);
      // Pages this key cannot read say so instead of failing a call.
      await config.page.getByRole('link', { name: 'Webhooks' }).click();
      await config.page.getByTestId('needs').waitFor();
      assert.match((await config.page.getByTestId('needs').textContent())!, /webhooks\.manage/);
      await config.page.close();

      const created = await admin.post(`/api/admin/realms/${REALM}/users`, { email: 'grace@shop.example', emailVerified: true });
      assert.equal((await admin.post(`/api/points/${REALM}/users/${created.body.id}/grants`, { kind: 'topup_credit', amount: 5 })).status, 200);
      assert.equal((await admin.post(`/api/points/${REALM}/consume`, { userId: created.body.id, amount: 1 })).status, 200);
      const { page, requests } = await signedIn('users', viewer.key);
      await page.getByLabel('User id or email').fill('grace@shop.example');
      await page.getByLabel('User id or email').press('Enter');
      await page.getByTestId('summary').waitFor();
      assert.equal(await page.getByRole('button', { name: 'Grant' }).isDisabled(), true);
      assert.equal(await page.getByRole('button', { name: 'Refund…' }).isDisabled(), true);
      assert.equal(await page.getByRole('button', { name: 'Delete user…' }).isDisabled(), false);
      // Nothing was tried that the key may not do.
      assert.ok(requests.every((r) => r.method() === 'GET'));
      await page.close();

      await admin.post('/api/admin/realms', { id: 'other', name: 'Other' });
      const stranger = await newKey(['*'], 'other');
      const foreign = await signedIn('users', stranger.key);
      assert.match((await foreign.page.getByTestId('needs').textContent())!, /bound to realm other/);
      await foreign.page.close();
    });

    it('reaches sign-in by keyboard, with the focus visible, and refuses a bad key next to the field', async () => {
      const { page, errors } = await open('');
      const focused = () => page.evaluate(() => document.activeElement?.id ?? '');
      // The key field takes the focus first; Tab and Shift+Tab walk the page from there.
      assert.equal(await focused(), 'key');
      await page.keyboard.type('gh_wrong');
      await page.keyboard.press('Enter');
      const alert = page.getByRole('alert');
      await alert.waitFor();
      assert.equal(await alert.textContent(), 'API key is invalid or revoked');
      assert.equal(await page.getByLabel('API key').getAttribute('aria-invalid'), 'true');
      await page.keyboard.type(srv.adminKey);
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Sign in');
      const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
      assert.notEqual(outline, 'none');
      await page.keyboard.press('Enter');
      await page.getByTestId('who').waitFor();
      await assertFitsBoth(page, 'home');
      // Signed in, the focus is on Sign out; the navigation is just before it.
      await page.keyboard.press('Shift+Tab');
      assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Audit');
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/manage\/audit$/);
      await page.getByTestId('who').waitFor(); // still signed in: the key is in this tab's sessionStorage
      assert.deepEqual(errors, []);
      await page.close();
    });
  });

  describe('the admin console keeps the key and its pages safe', { skip: !hasChromium() && 'Debian chromium is not installed (.ci/run installs it)' }, () => {
    it('sends the key only as the X-API-Key header: never in a cookie, localStorage, a URL or a body, and forgets it on sign-out', async () => {
      const { page, requests } = await signedIn('users');
      await page.getByRole('link', { name: 'Default points' }).click();
      await page.getByTestId('default-config').waitFor();
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Saved.').waitFor();
      const key = srv.adminKey;
      assert.equal(await page.evaluate(() => document.cookie), '');
      assert.equal(await page.evaluate(() => localStorage.length), 0);
      assert.equal(await page.evaluate(() => Object.values(sessionStorage).join()), key);
      assert.ok(!page.url().includes(key));
      assert.ok(requests.length > 5);
      for (const r of requests) {
        assert.ok(!r.url().includes(key), r.url());
        assert.ok(!(r.postData() ?? '').includes(key), r.url());
        const headers = await r.allHeaders();
        assert.equal(headers.cookie, undefined);
        assert.equal(headers.authorization, undefined);
        const carrying = Object.entries(headers).filter(([, v]) => v.includes(key));
        if (new URL(r.url()).pathname.startsWith('/api/')) assert.deepEqual(carrying, [['x-api-key', key]]);
        else assert.deepEqual(carrying, [], r.url()); // pages and their files are fetched without it
      }
      const cookies = await page.context().cookies();
      assert.deepEqual(cookies, []);
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByLabel('API key').waitFor();
      assert.equal(await page.evaluate(() => sessionStorage.length), 0);
      assert.equal(await page.getByTestId('default-config').count(), 0);
      await page.close();
    });

    it('is served under a strict CSP with no inline script or style, and a page framed by another origin is refused', async () => {
      for (const path of [
        '',
        'points/default-config',
        'billing/entitlement-mappings',
        'users',
        'webhooks',
        'audit',
        'assets/console.js',
        'assets/console.css',
      ]) {
        const res = await fetch(`${srv.http}/${REALM}/manage${path ? `/${path}` : ''}`);
        assert.equal(res.status, 200, path);
        const csp = res.headers.get('content-security-policy')!;
        assert.match(csp, /default-src 'none'/);
        assert.match(csp, /frame-ancestors 'none'/);
        assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|https?:/);
        assert.equal(res.headers.get('x-frame-options'), 'DENY');
        const text = await res.text();
        if (path === '' || !path.includes('.')) {
          assert.doesNotMatch(text, /<script(?![^>]*\bsrc=)[^>]*>/, `${path}: inline script`);
          assert.doesNotMatch(text, /<style|\sstyle=|\son[a-z]+=/i, `${path}: inline style or handler`);
        }
      }
      assert.equal((await fetch(`${srv.http}/${REALM}/manage/assets/shell.html`)).status, 404);
      assert.equal((await fetch(`${srv.http}/${REALM}/manage/assets/..%2Fservice.ts`)).status, 404);

      // Another origin (another port) frames the console: the browser refuses to show it.
      const framer: Server = createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(`<!doctype html><iframe id="f" onload="document.title='loaded'" src="${srv.http}/${REALM}/manage/users"></iframe>`);
      });
      await new Promise<void>((r) => framer.listen(0, '127.0.0.1', r));
      try {
        const page = await browser.newPage();
        const blocked: string[] = [];
        page.on('console', (m) => blocked.push(m.text()));
        await page.goto(`http://localhost:${(framer.address() as AddressInfo).port}/`);
        await page.waitForFunction(() => document.title === 'loaded');
        const frame = page.frames().find((f) => f !== page.mainFrame());
        assert.ok(frame);
        assert.equal(await frame!.locator('#sign-in').count(), 0, 'the framed console rendered');
        assert.ok(
          blocked.some((m) => m.includes("frame-ancestors 'none'")),
          blocked.join('\n'),
        );
        await page.close();
      } finally {
        framer.closeAllConnections();
        await new Promise((r) => framer.close(r));
      }
    });
  });
});
