// Consume throughput over gRPC with 3 windows, for a user with 1 000 and one with 1 000 000 prior
// consume events: window usage is a running-total ledger, so the cost of a consume must
// not grow with history. The events are seeded straight into the ledger in one transaction, all
// inside the longest window (nothing prunable), then a real `gatehouse serve` answers the calls.
//   npm run bench [-- --calls 3000 --concurrency 8]

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { SecretBox } from '../server/crypto/secrets.ts';
import { systemClock } from '../server/lib/clock.ts';
import { createPointsEngine } from '../server/points-engine.ts';
import { immediate, openDatabase } from '../server/store/sqlite/open.ts';
import { sqliteStores } from '../server/store/sqlite/stores.ts';
import { closeGrpcClients, grpcCall } from '../test/helpers/grpc.ts';
import { ROOT, spawnServer, tempDir } from '../test/helpers/server.ts';

const { values: args } = parseArgs({
  strict: false,
  options: { calls: { type: 'string', default: '3000' }, concurrency: { type: 'string', default: '8' }, rounds: { type: 'string', default: '4' } },
});
const CALLS = Number(args.calls ?? 3000);
const CONCURRENCY = Number(args.concurrency ?? 8);
const ROUNDS = Number(args.rounds ?? 4);
const DAY = 86_400_000;
export const WINDOWS = [
  { windowSeconds: 18000, limit: 1e12 },
  { windowSeconds: 86400, limit: 1e12 },
  { windowSeconds: 2592000, limit: 1e12 },
];

export async function seed(
  dbPath: string,
  counts: { small: number; large: number } = { small: 1_000, large: 1_000_000 },
): Promise<{ small: string; large: string }> {
  const db = openDatabase(dbPath);
  const now = Date.now();
  const engine = createPointsEngine(sqliteStores(db, SecretBox.ephemeral()), systemClock);
  db.prepare("INSERT INTO realms (id, name, created_at) VALUES ('bench', 'bench', ?)").run(now);
  const users = { small: 'usr_small', large: 'usr_large' };
  for (const id of Object.values(users))
    db.prepare("INSERT INTO users (id, realm_id, email, created_at) VALUES (?, 'bench', ?, ?)").run(id, `${id}@example.com`, now);
  const [m] = await engine.billing.applyMappingBatch('bench', 'stripe', 'bench', [{ entitlementKey: 'bench', quotaWindows: WINDOWS }], now);
  for (const [i, id] of Object.values(users).entries())
    await engine.billing.createSubscription({ realmId: 'bench', userId: id, mappingId: m!.id, externalSubscriptionId: null, id: `sub_bench_${i}` }, now);

  const t0 = Date.now();
  const insert = db.prepare("INSERT INTO points_usage_ledger (user_id, kind, at, seq, amount, cum) VALUES (?, 'subscription_credit', ?, ?, 1, ?)");
  const head = db.prepare("UPDATE points_usage_heads SET seq = ?, cum = ?, last_at = ? WHERE user_id = ? AND kind = 'subscription_credit'");
  for (const [id, n] of [
    [users.small, counts.small],
    [users.large, counts.large],
  ] as const) {
    // Spread over the last 29 days: every event is inside the 30-day window.
    const from = now - 29 * DAY;
    const step = (29 * DAY - 60_000) / n;
    await immediate(db, () => {
      let at = from;
      for (let seq = 1; seq <= n; seq++) {
        at = from + Math.floor(seq * step);
        insert.run(id, at, seq, seq);
      }
      head.run(n, n, at, id);
    });
  }
  process.stderr.write(`seeded ${counts.small + counts.large} ledger rows in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
  db.close();
  return users;
}

async function measure(addr: string, key: string, userId: string, calls: number): Promise<number> {
  let next = 0;
  let failed = 0;
  const t0 = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < calls) {
        next++;
        const r = await grpcCall(addr, 'PointsService', 'Consume', { realmId: 'bench', userId, amount: 1 }, key);
        if (!r.ok) failed++;
      }
    }),
  );
  const secs = Number(process.hrtime.bigint() - t0) / 1e9;
  if (failed) throw new Error(`${failed} consumes failed`);
  return calls / secs;
}

if (process.argv[1]?.endsWith('consume-history.ts')) {
  const dir = tempDir('gatehouse-bench-');
  const dbPath = join(dir, 'bench.db');
  const users = await seed(dbPath);
  const srv = await spawnServer({ dir, dbPath });
  try {
    await measure(srv.grpc, srv.adminKey, users.small, 300);
    await measure(srv.grpc, srv.adminKey, users.large, 300);
    const small: number[] = [];
    const large: number[] = [];
    // Interleaved rounds so drift of the machine affects both the same way; the median is reported.
    for (let i = 0; i < ROUNDS; i++) {
      // Alternate which goes first, so neither always runs on a freshly warmed (or tired) process.
      const order = i % 2 === 0 ? (['small', 'large'] as const) : (['large', 'small'] as const);
      for (const which of order) (which === 'small' ? small : large).push(await measure(srv.grpc, srv.adminKey, users[which], CALLS));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const result = {
      windows: WINDOWS.map((w) => w.windowSeconds),
      callsPerRound: CALLS,
      rounds: ROUNDS,
      concurrency: CONCURRENCY,
      consumesPerSecond1k: Math.round(median(small)),
      consumesPerSecond1M: Math.round(median(large)),
      ratio: Number((median(large) / median(small)).toFixed(3)),
    };
    const ok = result.ratio >= 0.8;
    process.stdout.write(
      `consume over gRPC, 3 windows (5h, day, 30d), ${CALLS} calls × ${ROUNDS} rounds, ${CONCURRENCY} in flight\n` +
        `  1 000 prior events:     ${result.consumesPerSecond1k} consumes/s\n` +
        `  1 000 000 prior events: ${result.consumesPerSecond1M} consumes/s\n` +
        `  ratio: ${result.ratio} (${ok ? 'ok, ≥ 0.8' : 'FAIL, < 0.8'})\n`,
    );
    mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
    writeFileSync(join(ROOT, 'bench', 'results', 'consume-history.json'), JSON.stringify({ ...result, at: new Date().toISOString() }, null, 2) + '\n');
    process.exitCode = ok ? 0 : 1;
  } finally {
    closeGrpcClients();
    await srv.stop();
  }
}
