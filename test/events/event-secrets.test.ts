// No event carries a token or a secret (docs/events.md "Event types": the data of each type): every
// path that emits, driven over real HTTP against a server whose realm has an endpoint subscribed to
// "*", and every body the receiver on loopback got searched for each ID token, access and refresh
// token, Apple notification, API key and webhook secret the test used. The server's clock is manual;
// the test runs the queue's rounds itself.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ManualClock } from '../../server/lib/clock.ts';
import { type AuthFixture, authFixture, REALM } from '../auth/fixture.ts';
import { EVENT_TYPES_DOCUMENTED } from '../helpers/event-types.ts';
import { api, http } from '../helpers/http.ts';
import type { InProcessServer } from '../helpers/server.ts';
import { receiver } from '../helpers/webhook-receiver.ts';
import { createKey, createMapping, createUser, subscribe } from '../points/helpers.ts';

describe('no token or secret in any event', () => {
  const clock = new ManualClock(Date.now());
  let f: AuthFixture;
  let hook: Awaited<ReturnType<typeof receiver>>;
  /** Every token, key and secret the test used or was given. */
  const secrets: string[] = [];
  const keep = <T extends string>(value: T): T => {
    assert.ok(value.length >= 16, `a secret worth searching for: ${value}`);
    secrets.push(value);
    return value;
  };
  /** The relay hands out what a round wrote (an alert's recovery) on the next. */
  const deliver = async () => {
    const jobs = (f.srv as InProcessServer).running.app.jobs;
    await jobs.runOnce();
    await jobs.runOnce();
  };

  before(async () => {
    f = await authFixture({ inProcess: { clock, tuning: { jobIntervalMs: 3_600_000, sweepIntervalMs: 3_600_000 } } });
    keep(f.srv.adminKey);
    hook = await receiver();
    const created = await f.admin.post(`/api/admin/realms/${REALM}/webhooks`, { url: hook.url, eventTypes: ['*'] });
    assert.equal(created.status, 200, created.text);
    keep(created.body.secret);
    const rotated = await f.admin.post(`/api/admin/realms/${REALM}/webhooks/${created.body.id}/rotate-secret`, {});
    assert.equal(rotated.status, 200, rotated.text);
    keep(rotated.body.secret);
    const test = await f.admin.post(`/api/admin/realms/${REALM}/webhooks/${created.body.id}/test`, {});
    assert.equal(test.status, 200, test.text);
    const cfg = await f.admin.put(`/api/points/${REALM}/default-config`, {
      registrationBonusPoints: 100,
      freePeriodicPointsAmount: 0,
      freePeriodicGrantPeriodType: 'once',
      freePeriodicQuotaWindows: [{ windowSeconds: 3600, limit: 10 }],
    });
    assert.equal(cfg.status, 200, cfg.text);
    const alerts = await f.admin.put(`/api/points/${REALM}/alerts`, { lowBalanceThresholds: [50], quotaExhausted: true, quotaRecovered: true });
    assert.equal(alerts.status, 200, alerts.text);
  });
  after(async () => {
    await hook.close();
    await f.close();
  });

  const appleToken = async (sub: string) => keep(await f.apple.token({ sub, email: `${sub}@privaterelay.appleid.com`, email_verified: true }));
  const signIn = async (sub: string, clientId = 'app') => {
    const r = await f.login('apple', { identityToken: await appleToken(sub), clientId });
    assert.equal(r.status, 200, r.text);
    keep(r.body.accessToken);
    keep(r.body.refreshToken);
    return r.body as { userId: string; accessToken: string; refreshToken: string };
  };
  const refresh = (refreshToken: string) =>
    http(f.srv.http, 'POST', `/api/oauth/${REALM}/token`, { form: { grant_type: 'refresh_token', refresh_token: refreshToken } });
  const notify = async (type: string, sub: string) => {
    const payload = keep(await f.apple.token({ sub: undefined, jti: randomUUID(), events: JSON.stringify({ type, sub, event_time: clock.now() }) }));
    const r = await http(f.srv.http, 'POST', `/api/oauth/${REALM}/apple/notifications`, { body: { payload } });
    assert.equal(r.status, 200, r.text);
  };
  const ok = async (p: Promise<{ status: number; text: string; body: any }>) => {
    const r = await p;
    assert.equal(r.status, 200, r.text);
    return r.body;
  };

  it('sends every event type with data holding none of the tokens, keys and secrets the calls used', async () => {
    // Sign-in (user.created, the registration grants), refresh, reuse of a rotated refresh token.
    const first = await signIn('secrets-first');
    const rotated = await refresh(first.refreshToken);
    assert.equal(rotated.status, 200, rotated.text);
    keep(rotated.body.access_token);
    keep(rotated.body.refresh_token);
    assert.equal((await refresh(first.refreshToken)).status, 400, 'reused');
    // RFC 7009 sign-out, and an operator's sign-out everywhere and disable.
    const second = await signIn('secrets-first');
    assert.equal((await http(f.srv.http, 'POST', `/api/oauth/${REALM}/revoke`, { form: { token: second.refreshToken } })).status, 200);
    await signIn('secrets-first');
    await ok(f.admin.post(`/api/admin/realms/${REALM}/users/${first.userId}/sign-out`, {}));
    await signIn('secrets-first');
    await ok(f.admin.post(`/api/admin/realms/${REALM}/users/${first.userId}/disable`, {}));
    await ok(f.admin.post(`/api/admin/realms/${REALM}/users/${first.userId}/enable`, {}));
    // A client disabled under a live session.
    await ok(
      f.admin.post(`/api/admin/realms/${REALM}/clients`, { clientId: 'app-secrets', name: 'S', type: 'first_party', redirectUris: [], ipBinding: 'off' }),
    );
    await signIn('secrets-client', 'app-secrets');
    await ok(f.admin.patch(`/api/admin/realms/${REALM}/clients/app-secrets`, { enabled: false }));
    // Linking and unlinking Google, with the user's own access token.
    const linker = await signIn('secrets-linker');
    const me = `/api/oauth/${REALM}/me/identities`;
    const google = keep(await f.google.token({ sub: 'secrets-linker-g', email: 'linker@example.com', email_verified: true }));
    await ok(http(f.srv.http, 'POST', me, { token: linker.accessToken, body: { provider: 'google', identityToken: google } }));
    await ok(http(f.srv.http, 'DELETE', `${me}/google`, { token: linker.accessToken }));
    // Apple's notifications: email forwarding, consent revoked.
    await notify('email-disabled', 'secrets-linker');
    await notify('consent-revoked', 'secrets-linker');
    // Points with a key of their own: grant, consume (the window exhausted, the balance low), hold
    // and settlement, refund, a hold left to expire.
    const points = api(f.srv.http, keep(await createKey(f.admin, REALM, ['points.manage', 'points.view', 'points.consume'])));
    const userId = await createUser(f.admin, REALM, 'secrets-points@example.com');
    await ok(points.post(`/api/points/${REALM}/users/${userId}/grants`, { kind: 'granted_credit', amount: 5 }));
    const consumed = await ok(points.post(`/api/points/${REALM}/consume`, { userId, amount: 70 }));
    const hold = await ok(points.post(`/api/points/${REALM}/holds`, { userId, amount: 4 }));
    await ok(points.post(`/api/points/${REALM}/holds/${hold.holdId}/settle`, { amount: 3 }));
    await ok(points.post(`/api/points/${REALM}/transactions/${consumed.transactionId}/refund`, { amount: 2, reason: 'failed job' }));
    await ok(points.post(`/api/points/${REALM}/holds`, { userId, amount: 1, ttlSeconds: 60 }));
    // A subscription activated (its credit granted) and cancelled.
    const mapping = await createMapping(f.admin, REALM, { entitlementKey: 'secrets', pointsPerPeriod: 10 }, 'secrets');
    const subscriptionId = await subscribe(f.admin, REALM, userId, mapping.mappingId);
    await ok(f.admin.post(`/api/bill/${REALM}/subscriptions/${subscriptionId}/cancel`, {}));
    // The account deleted by its user, and another by an operator.
    const leaving = await signIn('secrets-leaving');
    await ok(http(f.srv.http, 'DELETE', `/api/oauth/${REALM}/me`, { token: leaving.accessToken }));
    await ok(f.admin.delete(`/api/admin/realms/${REALM}/users/${linker.userId}`));
    await deliver();
    // An hour on: the hold expired, the window recovered.
    clock.advance(3_600_000 + 1000);
    await ok(points.get(`/api/points/${REALM}/users/${userId}/summary`));
    await deliver();

    const bodies = hook.received.map((r) => r.body);
    const types = new Set(bodies.map((b) => (JSON.parse(b) as { type: string }).type));
    assert.deepEqual([...types].sort(), [...EVENT_TYPES_DOCUMENTED].sort(), 'every type was sent');
    // Each with the `data` fields docs/events.md's tables give its type (a grant the service makes
    // by itself adds `windows`, as the table says).
    const documented = documentedData();
    for (const body of bodies) {
      const e = JSON.parse(body) as { type: string; data: Record<string, unknown> };
      const fields = [...documented.get(e.type)!];
      if (e.type === 'points.granted' && e.data.origin !== 'api') fields.push('windows');
      assert.deepEqual(Object.keys(e.data).sort(), fields.sort(), `${e.type}: ${body}`);
    }
    for (const body of bodies) {
      for (const secret of secrets) assert.ok(!body.includes(secret), `an event carries ${secret.slice(0, 12)}…: ${body}`);
      // Nothing that looks like one either: a JWT, a webhook secret, an API key.
      assert.doesNotMatch(body, /eyJ[\w-]+\.[\w-]+\.|whsec_|ghk_/);
    }
  });
});

/** The `data` fields of each event type, as the first `{…}` of its row in docs/events.md's tables. */
function documentedData(): Map<string, string[]> {
  const docs = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'docs', 'events.md'), 'utf8');
  const out = new Map<string, string[]>();
  for (const line of docs.split('\n')) {
    const row = /^\| ((?:`[\w.]+`(?:, )?)+) \| `\{([^}]*)\}`/.exec(line);
    if (!row) continue;
    const fields = row[2]!.split(',').map((f) => f.trim());
    for (const type of row[1]!.match(/[\w.]+/g)!) out.set(type, fields);
  }
  return out;
}
