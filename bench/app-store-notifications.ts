// Verifying and applying an App Store Server Notification (README "Selling plans through the App
// Store and Stripe"): a served SQLite gatehouse started with our own test root, sent SUBSCRIBED
// notifications signed as Apple signs them (ES256, a 3-certificate x5c chain), each for a user of
// its own so every one is verified (the notification and its transaction), recorded and applied
// (a subscription started with its window entitlement, its event and audit record). The figure:
// the serving process's CPU per notification (all its threads), median of the rounds; the chain is
// the same in every notification, so after the first it is verified from the cache.
//   node --import tsx bench/app-store-notifications.ts [--calls 400 --rounds 3]
import assert from 'node:assert/strict';
import { parseArgs } from 'node:util';
import { makeSigningChain, notificationPayload, signJws, transactionPayload } from '../test/helpers/app-store.ts';
import { api, http } from '../test/helpers/http.ts';
import { spawnServer } from '../test/helpers/server.ts';
import { round, runLoad, withCpu } from './lib/load.ts';

const REALM = 'bench';
const BUNDLE = 'com.example.bench';
const CONCURRENCY = 8;

export interface AppStoreNotificationsResult {
  callsPerRound: number;
  rounds: number;
  perSecond: number;
  p50Ms: number;
  /** Median over the rounds of the serving process's CPU per notification (µs, all threads). */
  serverCpuUsPerNotification: number | null;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

export async function appStoreNotifications(opts: { calls?: number; rounds?: number; log?: (s: string) => void } = {}): Promise<AppStoreNotificationsResult> {
  const calls = opts.calls ?? 400;
  const rounds = opts.rounds ?? 3;
  const log = opts.log ?? (() => {});
  const chain = makeSigningChain();
  const srv = await spawnServer({ args: ['--app-store-root-certs', chain.rootFile] });
  try {
    const h = api(srv.http, srv.adminKey);
    assert.equal((await h.post('/api/admin/realms', { id: REALM, name: REALM })).status, 200);
    assert.equal((await h.put(`/api/bill/${REALM}/billing/providers/app-store`, { bundleId: BUNDLE, environments: ['Sandbox'] })).status, 200);
    const mapping = await h.put(`/api/bill/${REALM}/entitlement-mappings/batch`, {
      paymentProvider: 'app_store',
      externalProductId: 'pro.monthly',
      updates: [{ entitlementKey: 'pro', quotaWindows: [{ windowSeconds: 18000, limit: 100 }] }],
    });
    assert.equal(mapping.status, 200, mapping.text);
    // Every payload signed beforehand: the load only sends.
    const total = calls * (rounds + 1);
    const bodies: string[] = [];
    for (let i = 0; i < total; i++) {
      const user = await h.post(`/api/admin/realms/${REALM}/users`, { email: `bench-${i}@example.com` });
      const tx = signJws(
        chain,
        transactionPayload({
          bundleId: BUNDLE,
          environment: 'Sandbox',
          productId: 'pro.monthly',
          appAccountToken: user.body.appAccountToken,
          originalTransactionId: `o-${i}`,
        }),
      );
      const signedPayload = signJws(
        chain,
        notificationPayload({ notificationType: 'SUBSCRIBED', bundleId: BUNDLE, environment: 'Sandbox', signedTransactionInfo: tx }),
      );
      bodies.push(JSON.stringify({ signedPayload }));
    }
    const send = (offset: number) => async (i: number) => {
      const r = await http(srv.http, 'POST', `/api/bill/${REALM}/app-store/notifications`, {
        raw: bodies[offset + i]!,
        headers: { 'content-type': 'application/json' },
      });
      return r.status === 200 && r.body.status === 'applied';
    };
    const cpu: number[] = [];
    const rates: number[] = [];
    const p50: number[] = [];
    for (let r = -1; r < rounds; r++) {
      const res = await withCpu(srv.proc.pid ?? null, () => runLoad(calls, CONCURRENCY, send((r + 1) * calls)));
      if (res.failed > 0) throw new Error(`${res.failed} notifications not applied`);
      if (r < 0) continue; // warm-up
      if (res.cpu.serverAllUs !== null) cpu.push(res.cpu.serverAllUs);
      rates.push(res.throughput);
      p50.push(res.p50Ms);
      log(`app store bench round ${r + 1}/${rounds}: ${Math.round(res.throughput)}/s, server CPU ${res.cpu.serverAllUs} µs per notification`);
    }
    return {
      callsPerRound: calls,
      rounds,
      perSecond: Math.round(median(rates)),
      p50Ms: round(median(p50)),
      serverCpuUsPerNotification: cpu.length ? Math.round(median(cpu)) : null,
    };
  } finally {
    await srv.stop();
  }
}

export function formatAppStoreNotifications(r: AppStoreNotificationsResult): string {
  return `App Store notification verified and applied (served, SQLite, ${CONCURRENCY} in flight): ${r.perSecond}/s, p50 ${r.p50Ms} ms, server CPU ${r.serverCpuUsPerNotification ?? '—'} µs per notification`;
}

if (process.argv[1]?.endsWith('app-store-notifications.ts')) {
  const { values } = parseArgs({ strict: false, options: { calls: { type: 'string' }, rounds: { type: 'string' } } });
  const r = await appStoreNotifications({
    calls: values.calls ? Number(values.calls) : undefined,
    rounds: values.rounds ? Number(values.rounds) : undefined,
    log: (s) => process.stderr.write(s + '\n'),
  });
  process.stdout.write(`${formatAppStoreNotifications(r)}\n`);
}
