// Consume with events against consume without (docs/events.md): one server, two realms, each with a
// user of the same points (a window and a large registration credit). In one realm a webhook
// endpoint on loopback is subscribed to points.consumed and every alert is on (low-balance
// thresholds, quota exhausted and recovered), so each consume writes its outbox event and reads
// the state after its writes and decides its alerts; the other realm has no endpoint and no alerts.
// Consumes over gRPC, 16 in flight, in interleaved rounds (alternating order); the goal: the ratio
// of throughputs ≥ 0.95.
// The server measured is an API replica (`serve --jobs off`, docs/events.md "Delivery"): the
// events its consumes write are delivered by a second replica on the same SQLite file, started
// once the rounds are over, and the bench waits until the receiver has every one. So the ratio is
// what the outbox and the alerts cost a consume; the delivery of an event (an HTTPS POST and its
// records, which cost about what a consume does) has its own goal (webhook-delivery.ts).
// `--same-replica` measures the old way, for reference: the measured server delivers too, while
// the load runs (a poll every 2 s, so how much of a round's delivery lands in a round varies).
//   node --import tsx bench/consume-events.ts [--calls 3000 --rounds 3] [--same-replica] [--layers DIR]
// --layers DIR profiles the servers (every thread) into DIR and prints, from the counted rounds,
// CPU per consume by layer with events and without (cpu-layers.ts), and CPU per event delivered
// while the deliveries left behind drain (with --same-replica: after each round with events).
import { parseArgs } from 'node:util';
import { JOB_POLL_INTERVAL_MS } from '../server/jobs/queue.ts';
import { closeGrpcClients, grpcClient } from '../test/helpers/grpc.ts';
import { api } from '../test/helpers/http.ts';
import { type SpawnedServer, spawnServer } from '../test/helpers/server.ts';
import { receiver } from '../test/helpers/webhook-receiver.ts';
import { formatLayers, layerProfile, nowUs, scaledTo, type Window } from './lib/cpu-layers.ts';
import { median, unary } from './lib/gatehouse.ts';
import { type LoadResult, processCpuUs, round, runLoad } from './lib/load.ts';

export interface ConsumeEventsResult {
  calls: number;
  rounds: number;
  /** Median consumes per second. */
  withEvents: number;
  without: number;
  /** Median of each round's throughput with events over without. */
  ratio: number;
  /** Median of each round's server CPU per consume without events over with (all its threads,
   *  /proc): what the events cost a consume, as a throughput ratio where the server's CPU is the
   *  limit, without the client's and the machine's share of each round's time. */
  cpuRatio: number;
  delivered: number;
  /** Where the events were delivered: by a second replica after the rounds, or by the measured
   *  server while they ran. */
  deliveredBy: 'another replica' | 'the same replica';
}

/** A measured span of the server: when it ran (for the profiles) and the server's CPU in it (/proc). */
interface Span {
  window: Window;
  cpuUs: number;
}

/** Runs `step` as a span of the server `pid`. */
async function spanOf<T>(pid: number, step: () => Promise<T>): Promise<{ span: Span; result: T }> {
  const cpu = () => processCpuUs(pid)?.all ?? 0;
  const c0 = cpu();
  const from = nowUs();
  const result = await step();
  return { span: { window: { from, to: nowUs() }, cpuUs: cpu() - c0 }, result };
}

export async function consumeEvents(
  opts: { calls?: number; rounds?: number; concurrency?: number; sameReplica?: boolean; layers?: string; log?: (s: string) => void } = {},
): Promise<ConsumeEventsResult> {
  const calls = opts.calls ?? 3000;
  const rounds = opts.rounds ?? 3;
  const concurrency = opts.concurrency ?? 16;
  const log = opts.log ?? (() => {});
  const sameReplica = opts.sameReplica ?? false;
  const nodeArgs = opts.layers === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', opts.layers];
  const srv = await spawnServer({ nodeArgs, args: sameReplica ? [] : ['--jobs', 'off'] });
  let deliverer: SpawnedServer | null = null;
  const spans: Record<'hooked' | 'quiet' | 'drain', Span[]> = { hooked: [], quiet: [], drain: [] };
  let drained = 0;
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
      for (const realm of order) {
        const { span, result } = await spanOf(srv.proc.pid!, () => load(realm));
        (realm === 'hooked' ? withEvents : without).push(result.throughput);
        spans[realm].push(span);
        if (sameReplica && opts.layers !== undefined && realm === 'hooked') {
          const before = hook.received.length;
          spans.drain.push((await spanOf(srv.proc.pid!, () => deliveriesDrained(hook.received))).span);
          drained += hook.received.length - before;
        }
      }
      const cpu = (of: Span[]) => Math.round(of.at(-1)!.cpuUs / calls);
      log(
        `round ${r + 1}/${rounds}: with events ${Math.round(withEvents.at(-1)!)}/s (${cpu(spans.hooked)} µs/call), without ${Math.round(without.at(-1)!)}/s (${cpu(spans.quiet)} µs/call)`,
      );
    }
    if (!sameReplica) {
      // Every event of the rounds (and of the warm-up) delivered by a replica that runs the queue.
      const before = hook.received.length;
      deliverer = await spawnServer({ nodeArgs, dbPath: srv.dbPath, dir: srv.dir });
      const { span } = await spanOf(deliverer.proc.pid!, async () => {
        await hook.receivedCount(calls * (rounds + 1));
        await deliveriesDrained(hook.received);
      });
      spans.drain.push(span);
      drained += hook.received.length - before;
    }
    if (opts.layers !== undefined) {
      await srv.stop(); // a profile is written when its process exits
      await deliverer?.stop();
      const per = (of: Span[], n: number) =>
        scaledTo(
          layerProfile(
            opts.layers!,
            of.map((s) => s.window),
            n,
          ),
          round(of.reduce((a, s) => a + s.cpuUs, 0) / n, 1),
        );
      log(formatLayers('consume', per(spans.quiet, calls * rounds), per(spans.hooked, calls * rounds), 'without events → with events'));
      if (drained > 0) log(formatLayers(`delivery of ${drained} events after the rounds`, {}, per(spans.drain, drained), 'per event delivered'));
    }
    return {
      calls,
      rounds,
      withEvents: round(median(withEvents), 1),
      without: round(median(without), 1),
      ratio: round(median(withEvents.map((x, i) => x / without[i]!))),
      cpuRatio: round(median(spans.hooked.map((h, i) => spans.quiet[i]!.cpuUs / h.cpuUs))),
      delivered: hook.received.length,
      deliveredBy: sameReplica ? 'the same replica' : 'another replica',
    };
  } finally {
    closeGrpcClients();
    await hook.close();
    await deliverer?.stop();
    await srv.stop();
  }
}

/** Resolves once the receiver has had nothing new for longer than the queue's poll interval: the
 *  deliveries left behind are done. */
async function deliveriesDrained(received: readonly unknown[]): Promise<void> {
  for (let seen = -1; received.length !== seen; ) {
    seen = received.length;
    await new Promise((r) => setTimeout(r, JOB_POLL_INTERVAL_MS + 500));
  }
}

if (process.argv[1]?.endsWith('consume-events.ts')) {
  const { values } = parseArgs({
    options: { calls: { type: 'string' }, rounds: { type: 'string' }, 'same-replica': { type: 'boolean' }, layers: { type: 'string' } },
  });
  const r = await consumeEvents({
    calls: Number(values.calls ?? 3000),
    rounds: Number(values.rounds ?? 3),
    sameReplica: values['same-replica'] ?? false,
    layers: values.layers,
    log: (s) => console.error(s),
  });
  console.log(JSON.stringify(r, null, 2));
}
