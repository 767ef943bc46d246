// Consume with events against consume without (docs/events.md): one server, two realms, each with a
// user of the same points (a window and a large registration credit). In one realm a webhook
// endpoint on loopback is subscribed to points.consumed and every alert is on (low-balance
// thresholds, quota exhausted and recovered), so each consume writes its outbox event, reads the
// state after its writes and decides its alerts, and the server's queue delivers the events while
// the load runs; the other realm has no endpoint and no alerts. Consumes over gRPC, 16 in flight,
// in interleaved rounds (alternating order); the goal: the ratio of throughputs ≥ 0.95.
//   node --import tsx bench/consume-events.ts [--calls 3000 --rounds 3]
import { parseArgs } from 'node:util';
import { closeGrpcClients, grpcClient } from '../test/helpers/grpc.ts';
import { api } from '../test/helpers/http.ts';
import { spawnServer } from '../test/helpers/server.ts';
import { receiver } from '../test/helpers/webhook-receiver.ts';
import { median, unary } from './lib/gatehouse.ts';
import { type LoadResult, round, runLoad } from './lib/load.ts';

export interface ConsumeEventsResult {
  calls: number;
  rounds: number;
  /** Median consumes per second. */
  withEvents: number;
  without: number;
  /** Median of each round's throughput with events over without. */
  ratio: number;
  delivered: number;
}

export async function consumeEvents(
  opts: { calls?: number; rounds?: number; concurrency?: number; log?: (s: string) => void } = {},
): Promise<ConsumeEventsResult> {
  const calls = opts.calls ?? 3000;
  const rounds = opts.rounds ?? 3;
  const concurrency = opts.concurrency ?? 16;
  const log = opts.log ?? (() => {});
  const srv = await spawnServer();
  const hook = await receiver();
  try {
    const admin = api(srv.http, srv.adminKey);
    const users: Record<string, string> = {};
    for (const realm of ['quiet', 'hooked']) {
      const ok = <T extends { status: number; text: string }>(r: T): T => {
        if (r.status !== 200) throw new Error(`${realm}: ${r.status} ${r.text}`);
        return r;
      };
      ok(await admin.post('/api/admin/realms', { id: realm, name: realm }));
      ok(
        await admin.put(`/api/points/${realm}/default-config`, {
          registrationBonusPoints: 100_000_000,
          freePeriodicGrantPeriodType: 'daily',
          freePeriodicQuotaWindows: [{ windowSeconds: 3600, limit: 1000 }],
        }),
      );
      users[realm] = ok(await admin.post(`/api/admin/realms/${realm}/users`, { email: `${realm}@example.com` })).body.id as string;
    }
    await admin.post('/api/admin/realms/hooked/webhooks', {
      url: hook.url,
      eventTypes: ['points.consumed', 'points.balance_low', 'points.quota_exhausted', 'points.quota_recovered'],
    });
    await admin.put('/api/points/hooked/alerts', { lowBalanceThresholds: [10, 1000, 50_000], quotaExhausted: true, quotaRecovered: true });
    const client = grpcClient(srv.grpc, 'PointsService');
    const load = (realm: string): Promise<LoadResult> =>
      runLoad(calls, concurrency, () => unary(client, 'Consume', { realmId: realm, userId: users[realm], amount: 1 }, srv.adminKey)).then((r) => {
        if (r.failed) throw new Error(`${r.failed} consumes failed in ${realm}`);
        return r;
      });
    await load('quiet');
    await load('hooked'); // warm-up
    const withEvents: number[] = [];
    const without: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const order = r % 2 ? (['hooked', 'quiet'] as const) : (['quiet', 'hooked'] as const);
      for (const realm of order) (realm === 'hooked' ? withEvents : without).push((await load(realm)).throughput);
      log(`round ${r + 1}/${rounds}: with events ${Math.round(withEvents.at(-1)!)}/s, without ${Math.round(without.at(-1)!)}/s`);
    }
    return {
      calls,
      rounds,
      withEvents: round(median(withEvents), 1),
      without: round(median(without), 1),
      ratio: round(median(withEvents.map((x, i) => x / without[i]!))),
      delivered: hook.received.length,
    };
  } finally {
    closeGrpcClients();
    await hook.close();
    await srv.stop();
  }
}

if (process.argv[1]?.endsWith('consume-events.ts')) {
  const { values } = parseArgs({ options: { calls: { type: 'string' }, rounds: { type: 'string' } } });
  const r = await consumeEvents({ calls: Number(values.calls ?? 3000), rounds: Number(values.rounds ?? 3), log: (s) => console.error(s) });
  console.log(JSON.stringify(r, null, 2));
}
