// Webhook delivery under load (docs/events.md): a real `gatehouse serve` with one endpoint pointing at
// a receiver on loopback (keep-alive, answers 204 at once), and outbox events seeded straight into
// the events table in bulk (the store's own row writer; as the use cases write them, undispatched).
//   1. Throughput: `--events` events handed out by the relay and delivered, as events/s from the
//      receiver's first request to its last; the goal is ≥ 2 000 events/s. On SQLite and on
//      PostgreSQL (a throwaway cluster, test/helpers/postgres.ts; skipped where none can run).
//   2. A backlog of `--backlog` events (100 000) seeded at once and drained, the server's RSS
//      sampled every second: memory "flat" when the highest RSS of the drain's last quarter is at
//      most 10 MiB above the highest of its second quarter. RSS saws by tens of MiB between full
//      GCs, so two single samples (the sustained load's "end against after warm-up", printed too)
//      compare where each fell in the cycle; a leak raises the tops. The live heap after each full
//      GC (--trace-gc) is printed beside it.
// Every event must reach the receiver; one seen twice is counted (at least once allows it).
//   node --import tsx bench/webhook-delivery.ts [--events 20000 --backlog 100000 --backend sqlite|postgres|both]
// BENCH_CPU_PROF=<dir> writes the server's CPU profile there (node --cpu-prof).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import type { GatehouseEvent } from '../server/events/model.ts';
import { newId } from '../server/lib/ids.ts';
import { createClient } from '../server/store/postgres/connect.ts';
import { EVENT_COLUMNS, eventValues } from '../server/store/record-rows.ts';
import { immediate, openDatabase } from '../server/store/sqlite/open.ts';
import { recordWriter } from '../server/store/sqlite/records.ts';
import { api } from '../test/helpers/http.ts';
import { postgresUnavailable, testPostgresOptions } from '../test/helpers/postgres.ts';
import { newDatabase, spawnServer, tempDir } from '../test/helpers/server.ts';
import { round, rssMiB } from './lib/load.ts';

export type WebhookBackend = 'sqlite' | 'postgres';

const REALM = 'bench';
const GOAL_PER_SECOND = 2000;
/** Rows per INSERT when seeding. */
const SEED_CHUNK = 1000;

export interface WebhookDeliveryResult {
  backend: WebhookBackend;
  throughput: { events: number; seconds: number; perSecond: number; goal: number; pass: boolean; duplicates: number };
  backlog: {
    events: number;
    seconds: number;
    perSecond: number;
    duplicates: number;
    rssMiB: { start: number | null; afterQuarter: number | null; end: number | null; peak: number | null; samples: number };
    rssFlat: boolean | null;
    /** The highest RSS of the drain's second quarter and of its last. */
    rssTopMiB: { secondQuarter: number | null; lastQuarter: number | null };
    memoryFlat: boolean | null;
    /** Live heap after each full GC during the drain. */
    liveHeapMiB: number[];
  };
}

/** A receiver on loopback that answers 204 to every request and notes each `webhook-id` once. */
async function countingReceiver(): Promise<{
  url: string;
  seen: Set<string>;
  requests(): number;
  firstAt(): number;
  lastAt(): number;
  reset(): void;
  close(): Promise<void>;
}> {
  let seen = new Set<string>();
  let requests = 0;
  let first = 0;
  let last = 0;
  const server: Server = createServer({ keepAlive: true }, (req, res) => {
    req.resume();
    req.on('end', () => {
      const now = performance.now();
      if (requests++ === 0) first = now;
      last = now;
      seen.add(String(req.headers['webhook-id']));
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    get seen() {
      return seen;
    },
    requests: () => requests,
    firstAt: () => first,
    lastAt: () => last,
    reset() {
      seen = new Set();
      requests = 0;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

function events(n: number, start: number): GatehouseEvent[] {
  const out: GatehouseEvent[] = [];
  for (let i = 0; i < n; i++) out.push({ id: newId('evt'), type: 'user.deleted', realmId: REALM, createdAt: start + i, data: { userId: newId('usr') } });
  return out;
}

/** Writes `n` undispatched outbox events, in chunks of one transaction each. */
async function seedEvents(dbPath: string, backend: WebhookBackend, n: number): Promise<void> {
  const start = Date.now();
  if (backend === 'sqlite') {
    const db = openDatabase(dbPath);
    try {
      const write = recordWriter(db);
      for (let i = 0; i < n; i += SEED_CHUNK) {
        const chunk = events(Math.min(SEED_CHUNK, n - i), start + i);
        await immediate(db, () => write({ events: chunk, audit: [], jobs: [] }));
      }
    } finally {
      db.close();
    }
    return;
  }
  const sql = createClient(testPostgresOptions(dbPath));
  await sql.connect();
  try {
    const width = EVENT_COLUMNS.length;
    for (let i = 0; i < n; i += SEED_CHUNK) {
      const chunk = events(Math.min(SEED_CHUNK, n - i), start + i);
      const rows = chunk.map((_, r) => `(${EVENT_COLUMNS.map((_c, c) => `$${r * width + c + 1}`).join(', ')})`);
      await sql.query(`INSERT INTO events (${EVENT_COLUMNS.join(', ')}) VALUES ${rows.join(', ')}`, chunk.flatMap(eventValues));
    }
  } finally {
    await sql.end();
  }
}

async function until(done: () => boolean, onTick: () => Promise<void> = async () => {}): Promise<void> {
  while (!done()) {
    await onTick();
    await new Promise((r) => setTimeout(r, 1000));
  }
}

export async function webhookDelivery(o: {
  backend: WebhookBackend;
  events: number;
  backlog: number;
  log: (s: string) => void;
}): Promise<WebhookDeliveryResult> {
  const dir = tempDir('gatehouse-bench-webhooks-');
  const database = await newDatabase(dir, o.backend);
  const receiver = await countingReceiver();
  const srv = await spawnServer({
    dir,
    dbPath: database.dbPath,
    nodeArgs: ['--trace-gc', ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF] : [])],
  });
  // --trace-gc lines: "… Mark-Compact 40.1 (52.3) -> 31.2 (53.0) MB, …": the live heap after a full
  // GC, noted while the backlog drains.
  let draining = false;
  const fullGcs: Array<{ mib: number }> = [];
  srv.proc.stdout!.setEncoding('utf8').on('data', (d: string) => {
    if (!draining) return;
    for (const m of d.matchAll(/Mark-Compact[^\n]*?-> ([\d.]+) \(/g)) fullGcs.push({ mib: Number(m[1]) });
  });
  try {
    const admin = api(srv.http, srv.adminKey);
    if ((await admin.post('/api/admin/realms', { id: REALM, name: 'Bench' })).status !== 200) throw new Error('realm not created');
    const hook = await admin.post(`/api/admin/realms/${REALM}/webhooks`, { url: receiver.url, eventTypes: ['user.deleted'] });
    if (hook.status !== 200) throw new Error(`endpoint not created: ${hook.text}`);

    // Warm-up, not counted: the server's first deliveries (JIT, connections).
    await seedEvents(database.dbPath, o.backend, 500);
    await until(() => receiver.seen.size >= 500);
    receiver.reset();

    o.log(`${o.backend}: throughput over ${o.events} events …`);
    await seedEvents(database.dbPath, o.backend, o.events);
    await until(() => receiver.seen.size >= o.events);
    const seconds = (receiver.lastAt() - receiver.firstAt()) / 1000;
    const perSecond = Math.round((o.events - 1) / seconds);
    const throughput = {
      events: o.events,
      seconds: round(seconds, 2),
      perSecond,
      goal: GOAL_PER_SECOND,
      pass: perSecond >= GOAL_PER_SECOND,
      duplicates: receiver.requests() - receiver.seen.size,
    };
    o.log(`${o.backend}: ${perSecond} events/s`);
    receiver.reset();

    o.log(`${o.backend}: a backlog of ${o.backlog} events …`);
    await seedEvents(database.dbPath, o.backend, o.backlog);
    draining = true;
    const samples: Array<{ delivered: number; mib: number }> = [];
    await until(
      () => receiver.seen.size >= o.backlog,
      async () => {
        const mib = await rssMiB(srv.proc.pid!);
        if (mib !== null) samples.push({ delivered: receiver.seen.size, mib });
      },
    );
    const mib = await rssMiB(srv.proc.pid!);
    if (mib !== null) samples.push({ delivered: receiver.seen.size, mib });
    const drained = (receiver.lastAt() - receiver.firstAt()) / 1000;
    draining = false;
    const quarter = samples.find((s) => s.delivered >= o.backlog / 4) ?? null;
    const end = samples.at(-1) ?? null;
    const top = (from: number, to: number) => {
      const mibs = samples.filter((s) => s.delivered >= from * o.backlog && s.delivered <= to * o.backlog).map((s) => s.mib);
      return mibs.length > 0 ? Math.max(...mibs) : null;
    };
    const [secondQuarter, lastQuarter] = [top(0.25, 0.5), top(0.75, 1)];
    return {
      backend: o.backend,
      throughput,
      backlog: {
        events: o.backlog,
        seconds: round(drained, 1),
        perSecond: Math.round((o.backlog - 1) / drained),
        duplicates: receiver.requests() - receiver.seen.size,
        rssMiB: {
          start: samples[0]?.mib ?? null,
          afterQuarter: quarter?.mib ?? null,
          end: end?.mib ?? null,
          peak: samples.length ? Math.max(...samples.map((s) => s.mib)) : null,
          samples: samples.length,
        },
        // As the sustained load judges it: at most 10 MiB more at the end than after warm-up.
        rssFlat: quarter && end ? end.mib - quarter.mib <= 10 : null,
        rssTopMiB: { secondQuarter, lastQuarter },
        memoryFlat: secondQuarter !== null && lastQuarter !== null ? lastQuarter - secondQuarter <= 10 : null,
        liveHeapMiB: fullGcs.map((g) => g.mib),
      },
    };
  } finally {
    await srv.stop();
    await receiver.close();
    await database.drop();
  }
}

export function formatWebhookDelivery(r: WebhookDeliveryResult): string {
  const t = r.throughput;
  const b = r.backlog;
  return (
    `webhook delivery (${r.backend}, one endpoint on loopback): ${t.perSecond} events/s over ${t.events} (goal ≥ ${t.goal}: ${t.pass ? 'pass' : 'FAIL'}), ${t.duplicates} seen twice\n` +
    `  backlog of ${b.events}: drained in ${b.seconds} s (${b.perSecond}/s), ${b.duplicates} seen twice; server RSS MiB start ${b.rssMiB.start}, ` +
    `after a quarter ${b.rssMiB.afterQuarter}, end ${b.rssMiB.end}, peak ${b.rssMiB.peak}; highest in the second quarter ${b.rssTopMiB.secondQuarter}, ` +
    `in the last ${b.rssTopMiB.lastQuarter} (memory ${b.memoryFlat ? 'flat' : 'NOT flat'}); live heap after full GCs ${JSON.stringify(b.liveHeapMiB)}`
  );
}

if (process.argv[1]?.endsWith('webhook-delivery.ts')) {
  const { values } = parseArgs({
    options: {
      events: { type: 'string', default: '20000' },
      backlog: { type: 'string', default: '100000' },
      backend: { type: 'string', default: 'both' },
    },
  });
  const log = (s: string) => process.stderr.write(s + '\n');
  const backends: WebhookBackend[] = values.backend === 'both' ? ['sqlite', 'postgres'] : [values.backend as WebhookBackend];
  for (const backend of backends) {
    const why = backend === 'postgres' ? postgresUnavailable() : null;
    if (why) {
      log(`PostgreSQL: skipped (${why})`);
      continue;
    }
    const r = await webhookDelivery({ backend, events: Number(values.events), backlog: Number(values.backlog), log });
    process.stdout.write(formatWebhookDelivery(r) + '\n');
  }
}
