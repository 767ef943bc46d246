// A page of one kind of history against a page of every kind (docs/points.md, history): a user with
// 100 000 movements, one in 1 000 a refund and the rest consumes. Pages of 20 through the points
// store in this process (no transport), newest first, the filtered ones of the rarest kind (before
// migration 008 SQLite walked the whole history for them: 84 ms a page), in interleaved rounds.
// The goal: a filtered page costs at most twice an unfiltered one. On SQLite (a file).
//   node --import tsx bench/history-kind.ts [--pages 2000 --rounds 5]

import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { SecretBox } from '../server/crypto/secrets.ts';
import type { TransactionKind } from '../server/points/model.ts';
import type { PointsStore } from '../server/points/store.ts';
import { openDatabase } from '../server/store/sqlite/open.ts';
import { sqliteStores } from '../server/store/sqlite/stores.ts';
import { tempDir } from '../test/helpers/server.ts';

const ROWS = 100_000;
const REFUND_EVERY = 1_000;
const PAGE_SIZE = 20;

export interface HistoryKindResult {
  rows: number;
  pagesPerRound: number;
  rounds: number;
  /** Median pages per second. */
  unfilteredPerSecond: number;
  filteredPerSecond: number;
  /** Median of each round's time per filtered page over its time per unfiltered page. */
  filteredOverUnfiltered: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** The user's history, seeded straight into the table over the last 300 days (inside what the
 *  history keeps). */
function seed(dbPath: string, now: number): void {
  const db = openDatabase(dbPath);
  db.prepare("INSERT INTO realms (id, name, created_at) VALUES ('bench', 'bench', ?)").run(now);
  db.prepare("INSERT INTO users (id, realm_id, email, created_at) VALUES ('u', 'bench', 'u@example.com', ?)").run(now);
  const insert = db.prepare(`INSERT INTO points_transactions (id, realm_id, user_id, kind, amount, allocations, created_at)
    VALUES (?, 'bench', 'u', ?, 1, '[{"creditKind":"topup_credit","sourceId":"bal_x","amount":1}]', ?)`);
  const from = now - 300 * 86_400_000;
  const step = Math.floor((300 * 86_400_000) / ROWS);
  db.transaction(() => {
    for (let i = 0; i < ROWS; i++) insert.run(`ptx_${String(i).padStart(8, '0')}`, i % REFUND_EVERY === 0 ? 'refund' : 'consume', from + i * step);
  })();
  db.exec('ANALYZE');
  db.close();
}

/** `pages` first pages of the user's history, of `kind` or of every kind; pages per second. */
async function timed(store: PointsStore, pages: number, kind: TransactionKind | null): Promise<number> {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < pages; i++) {
    const page = await store.history({ realmId: 'bench', userId: 'u', pageSize: PAGE_SIZE, after: null, kind }, Date.now());
    if (page.transactions.length !== PAGE_SIZE) throw new Error(`a page of ${page.transactions.length}, not ${PAGE_SIZE}`);
  }
  return pages / (Number(process.hrtime.bigint() - t0) / 1e9);
}

export async function historyKind(opts: { pages?: number; rounds?: number; log?: (s: string) => void } = {}): Promise<HistoryKindResult> {
  const pages = opts.pages ?? 2000;
  const rounds = opts.rounds ?? 5;
  const log = opts.log ?? (() => {});
  const dir = tempDir('gatehouse-bench-history-');
  const dbPath = join(dir, 'history.db');
  seed(dbPath, Date.now());
  const db = openDatabase(dbPath);
  const store = sqliteStores(db, SecretBox.ephemeral()).points;
  const all: number[] = [];
  const refunds: number[] = [];
  try {
    for (let r = -1; r < rounds; r++) {
      // Alternating order, so neither measure always runs on the warmer cache.
      const order: Array<TransactionKind | null> = r % 2 === 0 ? [null, 'refund'] : ['refund', null];
      const rates = new Map<TransactionKind | null, number>();
      for (const kind of order) rates.set(kind, await timed(store, pages, kind));
      if (r < 0) continue; // warm-up
      all.push(rates.get(null)!);
      refunds.push(rates.get('refund')!);
      log(`history bench round ${r + 1}/${rounds}: every kind ${Math.round(all.at(-1)!)} pages/s, refunds only ${Math.round(refunds.at(-1)!)} pages/s`);
    }
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return {
    rows: ROWS,
    pagesPerRound: pages,
    rounds,
    unfilteredPerSecond: Math.round(median(all)),
    filteredPerSecond: Math.round(median(refunds)),
    // Time per page is the inverse of the rate: (1 / filtered) / (1 / unfiltered).
    filteredOverUnfiltered: Number(median(all.map((a, i) => a / refunds[i]!)).toFixed(3)),
  };
}

if (process.argv[1]?.endsWith('history-kind.ts')) {
  const { values } = parseArgs({ strict: false, options: { pages: { type: 'string' }, rounds: { type: 'string' } } });
  const r = await historyKind({
    pages: values.pages ? Number(values.pages) : undefined,
    rounds: values.rounds ? Number(values.rounds) : undefined,
    log: (s) => process.stderr.write(s + '\n'),
  });
  process.stdout.write(JSON.stringify(r, null, 2) + '\n');
}
