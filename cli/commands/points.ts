// gatehouse points: a user's points (summary), grants of top-up / granted credit, consumes, holds
// and their settlement, refunds and the history.
import { Command } from 'commander';
import { TRANSACTION_KINDS } from '../../server/points/model.ts';
import { type CliAnswer, type CliRequest, globals, parseIntArg, parseSecondsArg, realmOf, rpc, show } from '../context.ts';
import { parseDuration } from '../duration.ts';
import { CliError, table, usageError } from '../output.ts';

export function summaryText(s: CliAnswer<'PointsService', 'GetSummary'>): string {
  const b = s.balances!;
  const lines = [
    `user:      ${s.userId}`,
    `total:     ${s.total} (quota ${s.spendableFromQuota}, balances ${s.spendableFromPool})`,
    `balances:  topup ${b.topup}, registration ${b.registration}, granted ${b.granted}, subscription ${b.subscription}, free periodic ${b.freePeriodic}`,
  ];
  // Held points are in no balance and not in the total: said only when there are some.
  // The summary lists the holds soonest to expire, not all of them (docs/points.md): the rest counted.
  if (s.held > 0) {
    const more = s.holdCount - s.holds.length;
    const listed = s.holds.map((h) => `${h.holdId} (${h.amount} until ${h.expiresAt})`).join(', ');
    lines.push(`held:      ${s.held} in ${listed}${more > 0 ? ` and ${more} more` : ''}`);
  }
  const rows = s.windows;
  if (rows.length) {
    lines.push(
      '',
      table(
        ['KIND', 'WINDOW', 'LIMIT', 'USED', 'REMAINING', 'NEXT RECOVERY', 'RESETS', ''],
        rows.map((w) => [
          w.creditKind,
          w.key,
          w.limit,
          w.used,
          w.remaining,
          w.nextRecoveryAt,
          w.resetsAt,
          [w.isTightest ? 'tightest' : '', w.exhausted ? 'exhausted' : ''].filter(Boolean).join(','),
        ]),
      ),
    );
  }
  return lines.join('\n');
}

type Allocations = Array<{ creditKind: string; sourceId: string; amount: number }>;
type Left = { quota: number; pool: number; total: number } | null;

const allocationTable = (alloc: Allocations) =>
  table(
    ['KIND', 'SOURCE', 'AMOUNT'],
    alloc.map((a) => [a.creditKind, a.sourceId, a.amount]),
  );
const leftText = (rem: Left) => (rem ? `left ${rem.total} (quota ${rem.quota}, balances ${rem.pool})` : '');

export function holdText(h: CliAnswer<'PointsService', 'CreateHold'>): string {
  const state =
    h.status === 'open'
      ? `held ${h.amount} of ${h.userId} (${h.holdId}) until ${h.expiresAt}`
      : h.status === 'settled'
        ? `hold ${h.holdId} settled at ${h.settledAmount} of ${h.amount} held, ${h.closedAt}`
        : `hold ${h.holdId} ${h.status}: ${h.amount} back, ${h.closedAt}`;
  return [`${state}; ${leftText(h.remaining)}`, allocationTable(h.allocations)].join('\n');
}

export function historyText(page: CliAnswer<'PointsService', 'ListTransactions'>): string {
  const lines = [
    page.transactions.length === 0
      ? 'no movements'
      : table(
          ['TIME', 'KIND', 'AMOUNT', 'ID', 'RELATED', 'DESCRIPTION'],
          page.transactions.map((t) => [t.createdAt, t.kind, t.amount, t.transactionId, t.relatedId, t.description]),
        ),
  ];
  if (page.nextPageToken) lines.push('', `more: --page-token ${page.nextPageToken}`);
  return lines.join('\n');
}

/** The insufficient_points refusal of a consume, a hold or a settle's extra, in plain words. */
function notEnough(e: unknown, what: string): unknown {
  if (e instanceof CliError && e.code === 'insufficient_points') {
    return new CliError(`not enough points: have ${e.extra.have}, need ${e.extra.need}; ${what}`, 1, e.code, e.extra);
  }
  return e;
}

/** RFC 3339, or a length from now (30d, 12h, 90m…). */
export function parseExpiry(text: string, now = Date.now()): { seconds: number; nanos: number } {
  let ms: number;
  if (/^\d{4}-\d{2}-\d{2}T/.test(text)) {
    ms = Date.parse(text);
    if (Number.isNaN(ms)) throw usageError(`--expires ${text}: not an RFC 3339 time`);
  } else {
    const s = parseDuration(text);
    if (typeof s === 'string') throw usageError(`--expires ${text}: an RFC 3339 time or a length (${s})`);
    ms = now + s * 1000;
  }
  return { seconds: Math.floor(ms / 1000), nanos: (ms % 1000) * 1e6 };
}

export function pointsCommand(): Command {
  const cmd = new Command('points').description("users' points: summary, grants, consumes");

  cmd
    .command('show <userId>')
    .description("a user's balances and window quotas")
    .action(async (userId: string, _o: object, c: Command) => {
      const g = globals(c);
      const res = await rpc(g, 'PointsService', 'GetSummary', { realmId: realmOf(g), userId });
      show(g, res, () => summaryText(res));
    });

  cmd
    .command('grant <userId>')
    .description('grant top-up or granted credit')
    .requiredOption('--amount <n>', 'points (> 0)', parseIntArg('--amount', 1))
    .option('--kind <kind>', 'topup_credit or granted_credit', 'granted_credit')
    .option('--expires <when>', 'RFC 3339 time or a length from now (30d); default never')
    .option('--idempotency-key <key>', 'a retry with the same key grants once')
    .action(async (userId: string, o: { amount: number; kind: string; expires?: string; idempotencyKey?: string }, c: Command) => {
      const g = globals(c);
      const kind = o.kind === 'topup' ? 'topup_credit' : o.kind === 'granted' ? 'granted_credit' : o.kind;
      if (kind !== 'topup_credit' && kind !== 'granted_credit') throw usageError(`--kind ${o.kind}: topup_credit or granted_credit`);
      const req: CliRequest<'PointsService', 'Grant'> = { realmId: realmOf(g), userId, kind, amount: o.amount };
      if (o.expires) req.expiresAt = parseExpiry(o.expires);
      if (o.idempotencyKey) req.idempotencyKey = o.idempotencyKey;
      const res = await rpc(g, 'PointsService', 'Grant', req);
      show(g, res, () => `granted ${res.amount} ${res.kind} to ${res.userId} (${res.grantId}), expires ${res.expiresAt ?? 'never'}`);
    });

  cmd
    .command('consume <userId>')
    .description('consume points: window quota first, then balances; all or nothing')
    .requiredOption('--amount <n>', 'points (> 0)', parseIntArg('--amount', 1))
    .option('--description <text>', 'what the points paid for')
    .option('--idempotency-key <key>', 'a retry with the same key deducts once')
    .action(async (userId: string, o: { amount: number; description?: string; idempotencyKey?: string }, c: Command) => {
      const g = globals(c);
      const req: CliRequest<'PointsService', 'Consume'> = { realmId: realmOf(g), userId, amount: o.amount };
      if (o.description !== undefined) req.description = o.description;
      if (o.idempotencyKey) req.idempotencyKey = o.idempotencyKey;
      try {
        const res = await rpc(g, 'PointsService', 'Consume', req);
        show(g, res, () => [`consumed ${res.amount} (${res.transactionId}); ${leftText(res.remaining)}`, allocationTable(res.allocations)].join('\n'));
      } catch (e) {
        throw notEnough(e, 'nothing was deducted');
      }
    });

  cmd
    .command('hold <userId>')
    .description('reserve points for work whose cost is known afterwards; settle or release it later')
    .requiredOption('--amount <n>', 'points (> 0)', parseIntArg('--amount', 1))
    .option('--ttl <duration>', 'released by itself after this long (1s to 24h; default 10m)', parseSecondsArg('--ttl'))
    .option('--description <text>', 'what the points are for')
    .option('--idempotency-key <key>', 'a retry with the same key holds once')
    .action(async (userId: string, o: { amount: number; ttl?: number; description?: string; idempotencyKey?: string }, c: Command) => {
      const g = globals(c);
      const req: CliRequest<'PointsService', 'CreateHold'> = { realmId: realmOf(g), userId, amount: o.amount };
      if (o.ttl !== undefined) req.ttlSeconds = o.ttl;
      if (o.description !== undefined) req.description = o.description;
      if (o.idempotencyKey) req.idempotencyKey = o.idempotencyKey;
      try {
        const res = await rpc(g, 'PointsService', 'CreateHold', req);
        show(g, res, () => holdText(res));
      } catch (e) {
        throw notEnough(e, 'nothing was held');
      }
    });

  cmd
    .command('settle <holdId>')
    .description('charge a hold: below the held amount the rest goes back, above it the extra is consumed now')
    .requiredOption('--amount <n>', 'points to charge (≥ 0)', parseIntArg('--amount', 0))
    .option('--description <text>', 'what the points paid for')
    .option('--idempotency-key <key>', 'a retry with the same key settles once')
    .action(async (holdId: string, o: { amount: number; description?: string; idempotencyKey?: string }, c: Command) => {
      const g = globals(c);
      const req: CliRequest<'PointsService', 'SettleHold'> = { realmId: realmOf(g), holdId, amount: o.amount };
      if (o.description !== undefined) req.description = o.description;
      if (o.idempotencyKey) req.idempotencyKey = o.idempotencyKey;
      try {
        const res = await rpc(g, 'PointsService', 'SettleHold', req);
        show(g, res, () =>
          [`settled ${res.holdId} at ${res.amount} (${res.transactionId}); ${leftText(res.remaining)}`, allocationTable(res.allocations)].join('\n'),
        );
      } catch (e) {
        throw notEnough(e, 'the hold stays open');
      }
    });

  cmd
    .command('release <holdId>')
    .description('give all of a hold back')
    .option('--idempotency-key <key>', 'a retry with the same key answers the same')
    .action(async (holdId: string, o: { idempotencyKey?: string }, c: Command) => {
      const g = globals(c);
      const req: CliRequest<'PointsService', 'ReleaseHold'> = { realmId: realmOf(g), holdId };
      if (o.idempotencyKey) req.idempotencyKey = o.idempotencyKey;
      const res = await rpc(g, 'PointsService', 'ReleaseHold', req);
      show(g, res, () => holdText(res));
    });

  cmd
    .command('refund <transactionId>')
    .description('give back a consume or settlement, or part of it, to where it came from (last drawn first)')
    .option('--amount <n>', 'points (> 0); default all that is still refundable', parseIntArg('--amount', 1))
    .option('--reason <text>', 'why (shown in the history)')
    .option('--idempotency-key <key>', 'a retry with the same key refunds once')
    .action(async (transactionId: string, o: { amount?: number; reason?: string; idempotencyKey?: string }, c: Command) => {
      const g = globals(c);
      const req: CliRequest<'PointsService', 'RefundTransaction'> = { realmId: realmOf(g), transactionId };
      if (o.amount !== undefined) req.amount = o.amount;
      if (o.reason !== undefined) req.reason = o.reason;
      if (o.idempotencyKey) req.idempotencyKey = o.idempotencyKey;
      const res = await rpc(g, 'PointsService', 'RefundTransaction', req);
      show(g, res, () =>
        [
          `refunded ${res.amount} of ${res.transactionId} (${res.refundId}): ${res.refunded} went back; ${leftText(res.remaining)}`,
          table(
            ['KIND', 'SOURCE', 'AMOUNT', 'RETURNED'],
            res.allocations.map((a) => [a.creditKind, a.sourceId, a.amount, a.returned]),
          ),
        ].join('\n'),
      );
    });

  cmd
    .command('history <userId>')
    .description("a user's movements of points, newest first")
    .option('--page-size <n>', 'movements per page (1–200; default 50)', parseIntArg('--page-size', 1))
    .option('--page-token <token>', 'the next page, as the previous page named it')
    .option('--kind <kind>', `only one kind: ${TRANSACTION_KINDS.join(', ')}`)
    .action(async (userId: string, o: { pageSize?: number; pageToken?: string; kind?: string }, c: Command) => {
      const g = globals(c);
      if (o.kind !== undefined && !(TRANSACTION_KINDS as readonly string[]).includes(o.kind)) {
        throw usageError(`--kind ${o.kind}: one of ${TRANSACTION_KINDS.join(', ')}`);
      }
      const req: CliRequest<'PointsService', 'ListTransactions'> = { realmId: realmOf(g), userId, pageToken: o.pageToken ?? '', kind: o.kind ?? '' };
      if (o.pageSize !== undefined) req.pageSize = o.pageSize;
      const res = await rpc(g, 'PointsService', 'ListTransactions', req);
      show(g, res, () => historyText(res));
    });
  return cmd;
}
