// gatehouse points: a user's points (summary), grants of top-up / granted credit, and consumes.
import { Command } from 'commander';
import { type CliAnswer, type CliRequest, globals, parseIntArg, realmOf, rpc, show } from '../context.ts';
import { parseDuration } from '../duration.ts';
import { CliError, table, usageError } from '../output.ts';

export function summaryText(s: CliAnswer<'PointsService', 'GetSummary'>): string {
  const b = s.balances!;
  const lines = [
    `user:      ${s.userId}`,
    `total:     ${s.total} (quota ${s.spendableFromQuota}, balances ${s.spendableFromPool})`,
    `balances:  topup ${b.topup}, registration ${b.registration}, granted ${b.granted}, subscription ${b.subscription}, free periodic ${b.freePeriodic}`,
  ];
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
        const alloc = res.allocations;
        const rem = res.remaining!;
        show(g, res, () =>
          [
            `consumed ${res.amount} (${res.transactionId}); left ${rem.total} (quota ${rem.quota}, balances ${rem.pool})`,
            table(
              ['KIND', 'SOURCE', 'AMOUNT'],
              alloc.map((a) => [a.creditKind, a.sourceId, a.amount]),
            ),
          ].join('\n'),
        );
      } catch (e) {
        if (e instanceof CliError && e.code === 'insufficient_points') {
          throw new CliError(`not enough points: have ${e.extra.have}, need ${e.extra.need}; nothing was deducted`, 1, e.code, e.extra);
        }
        throw e;
      }
    });
  return cmd;
}
