// gatehouse simulate: what a usage pattern meets under a window configuration, offline, on the
// real consumption engine with a virtual clock (see cli/simulator.ts).
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { moduleLoader } from '../../server/lib/load-module.ts';
import { collect, globals, realmOf, rpc, show } from '../context.ts';
import { parseDuration } from '../duration.ts';
import { table, usageError } from '../output.ts';
import type { SimulationResult, UsageEvent } from '../simulator.ts';
import type { Window } from '../window-editor.ts';

// Loaded when first needed (server/lib/load-module.ts).
const load = moduleLoader(import.meta.url);

const YEAR_MS = 365 * 86_400_000;
/** The longest run: ten years of a call a minute is five million consumes, already a long wait. */
const MAX_DURATION_MS = 10 * YEAR_MS;

function durationMs(text: string, flag: string): number {
  const y = /^\s*(\d+)\s*y\s*$/i.exec(text);
  if (y) return Number(y[1]) * YEAR_MS;
  const s = parseDuration(text);
  if (typeof s === 'string') throw usageError(`${flag}: ${s} (or years, e.g. 1y)`);
  return s * 1000;
}

function positiveInt(flag: string) {
  return (v: string) => {
    if (!/^\d+$/.test(v) || Number(v) <= 0 || !Number.isSafeInteger(Number(v))) throw usageError(`${flag}: a whole number > 0`);
    return Number(v);
  };
}

function wholeNumber(flag: string) {
  return (v: string) => {
    if (!/^\d+$/.test(v) || !Number.isSafeInteger(Number(v))) throw usageError(`${flag}: a whole number ≥ 0`);
    return Number(v);
  };
}

/** CSV lines `time,amount`: time as an offset (90m, 3600) or an ISO timestamp; # comments. */
export function readCsv(path: string, start: number): UsageEvent[] {
  let text: string;
  try {
    text = readFileSync(path === '-' ? 0 : path, 'utf8');
  } catch (e) {
    throw usageError(`--csv: ${(e as Error).message}`);
  }
  const events: UsageEvent[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    const l = line.trim();
    if (!l || l.startsWith('#') || (i === 0 && /[a-z]/i.test(l.split(',')[1] ?? ''))) return; // blank, comment, header
    const [when, amount] = l.split(',').map((x) => x.trim());
    if (!when || !amount || !/^\d+$/.test(amount) || Number(amount) <= 0) throw usageError(`--csv line ${i + 1}: expected time,amount with amount > 0`);
    const at = /^\d{4}-\d{2}-\d{2}T/.test(when) ? Date.parse(when) - start : durationOrZero(when, i);
    if (!Number.isFinite(at) || at < 0) throw usageError(`--csv line ${i + 1}: time ${when} is before the start`);
    events.push({ at, amount: Number(amount) });
  });
  return events.sort((a, b) => a.at - b.at);
}

function durationOrZero(when: string, i: number): number {
  if (/^0+$/.test(when)) return 0;
  const s = parseDuration(when);
  if (typeof s === 'string') throw usageError(`--csv line ${i + 1}: time ${when}: ${s}`);
  return s * 1000;
}

export function simulateCommand(): Command {
  return (
    new Command('simulate')
      .description('replay a usage pattern against window quotas and pools, offline, on the real engine')
      .option('--window <length=limit>', 'a quota window (repeatable), e.g. --window 5h=10 --window 1w=200', collect, [])
      .option('--kind <kind>', 'whose windows: subscription | free', 'subscription')
      .option('--mapping <id>', 'take the windows of this entitlement mapping from the server')
      .option('--default-config', "take the free periodic windows of the realm's default configuration from the server")
      .option('--pool <kind=amount>', 'a starting pool balance, topup=100 or granted=50 (repeatable)', collect, [])
      .option('--every <duration>', 'steady usage: one call every DURATION (e.g. 20m)')
      .option('--amount <n>', 'points per call', positiveInt('--amount'), 1)
      .option('--hold <n>', 'each call holds N points first, then settles --settle (an app reserving before it knows the cost)', positiveInt('--hold'))
      .option('--settle <n>', 'with --hold: points each call settles at (0 or more; above the hold draws the extra)', wholeNumber('--settle'))
      .option('--burst <count@every>', 'bursts: COUNT calls at the start of every EVERY (e.g. 30@1d; repeatable)', collect, [])
      .option('--csv <file>', 'usage from a CSV of time,amount (time an offset like 90m or an ISO timestamp)')
      .requiredOption('--duration <duration>', 'how long to simulate (e.g. 1d, 4w, 1y)')
      .option('--start <iso>', 'virtual start time', '2026-01-01T00:00:00Z')
      .option('--width <n>', 'chart width (samples of available quota)', positiveInt('--width'), 60)
      // biome-ignore lint/suspicious/noExplicitAny: commander hands the parsed options over as an untyped record
      .action(async (o: Record<string, any>, c: Command) => {
        const g = globals(c);
        const start = Date.parse(o.start);
        if (Number.isNaN(start)) throw usageError('--start: an ISO timestamp such as 2026-01-01T00:00:00Z');
        const duration = durationMs(o.duration, '--duration');
        if (duration > MAX_DURATION_MS) throw usageError(`--duration ${o.duration}: at most 10 years (10y)`);
        let kind: 'subscription_credit' | 'free_periodic_credit' = o.kind === 'free' ? 'free_periodic_credit' : 'subscription_credit';
        if (o.kind !== 'free' && o.kind !== 'subscription') throw usageError('--kind: subscription or free');

        let windows: Window[];
        const { windowsFromFlags } = await load<typeof import('../window-rules.ts')>('../window-rules.ts');
        if (o.mapping) {
          const res = await rpc(g, 'BillingService', 'ListEntitlementMappings', { realmId: realmOf(g), paymentProvider: '', externalProductId: '' });
          const m = res.mappings.find((x) => x.mappingId === o.mapping);
          if (!m) throw usageError(`--mapping: ${o.mapping} not found in realm ${realmOf(g)}`);
          windows = (m.quotaWindows as Window[] | null) ?? [];
          kind = 'subscription_credit';
        } else if (o.defaultConfig) {
          const cfg = await rpc(g, 'PointsService', 'GetDefaultConfig', { realmId: realmOf(g) });
          windows = (cfg.freePeriodicQuotaWindows as Window[] | null) ?? [];
          kind = 'free_periodic_credit';
        } else windows = windowsFromFlags(o.window, 'windows');
        if (windows.length === 0) throw usageError('no windows: pass --window LENGTH=LIMIT, --mapping or --default-config');

        // With holds, a call costs what it settles; --hold is only what it must find free first.
        if ((o.hold === undefined) !== (o.settle === undefined)) throw usageError('--hold and --settle go together: --hold 30 --settle 12');
        if (o.hold !== undefined && c.getOptionValueSource('amount') === 'cli') throw usageError('--amount: not with --hold; each call costs --settle');
        if (o.hold !== undefined && o.csv) throw usageError('--csv: not with --hold; the CSV gives each call its own amount');
        const amount: number = o.hold === undefined ? o.amount : o.settle;

        const pools: { topup?: number; granted?: number } = {};
        for (const p of o.pool as string[]) {
          const m = /^(topup|granted)=(\d+)$/.exec(p);
          if (!m) throw usageError(`--pool ${p}: expected topup=N or granted=N`);
          pools[m[1] as 'topup' | 'granted'] = (pools[m[1] as 'topup' | 'granted'] ?? 0) + Number(m[2]);
        }

        const sim = await load<typeof import('../simulator.ts')>('../simulator.ts');
        const streams: UsageEvent[][] = [];
        let lazy: Iterable<UsageEvent> | null = null;
        let count = 0;
        if (o.every) {
          const every = durationMs(o.every, '--every');
          count += Math.floor(duration / every) + 1;
          if (!o.burst.length && !o.csv)
            lazy = sim.steady(every, amount, duration); // a year a minute: no array of half a million
          else streams.push([...sim.steady(every, amount, duration)]);
        }
        for (const b of o.burst as string[]) {
          const m = /^(\d+)@(.+)$/.exec(b);
          if (!m || Number(m[1]) <= 0) throw usageError(`--burst ${b}: expected COUNT@EVERY, e.g. 30@1d`);
          const events = [...sim.bursts(Number(m[1]), durationMs(m[2]!, '--burst'), amount, duration)];
          count += events.length;
          streams.push(events);
        }
        if (o.csv) {
          const events = readCsv(o.csv, start).filter((e) => e.at <= duration);
          count += events.length;
          streams.push(events);
        }
        if (!lazy && streams.length === 0) throw usageError('no usage: pass --every, --burst or --csv');

        const progress = process.stderr.isTTY && count > 20_000;
        const started = Date.now();
        const result = await sim.simulate({
          windows,
          kind,
          pools,
          events: lazy ?? sim.mergeEvents(streams),
          hold: o.hold,
          eventCount: count,
          durationMs: duration,
          start,
          samples: o.width,
          onProgress: progress
            ? (done, total) => {
                const pct = Math.min(100, Math.floor((done / Math.max(1, total)) * 100));
                process.stderr.write(`\r[${'#'.repeat(pct / 4).padEnd(25)}] ${pct}% ${done}/${total} calls`);
                if (done >= total) process.stderr.write('\n');
              }
            : undefined,
        });
        const report = { windows, kind, pools, durationMs: duration, elapsedMs: Date.now() - started, ...result };
        const { windowsText } = await load<typeof import('../window-text.ts')>('../window-text.ts');
        show(g, report, () => describe(report, windowsText(windows), sim.asciiChart(result.curve.map((p) => p.availableQuota))));
      })
  );
}

function describe(r: SimulationResult & { windows: Window[]; kind: string }, windows: string, chart: string): string {
  const lines = [
    `Windows (${r.kind}): ${windows}`,
    `Requests: ${r.requests}  served: ${r.served}  refused: ${r.refused}`,
    `Points: requested ${r.pointsRequested}, served ${r.pointsServed} (${r.servedFromQuota} from quota, ${r.servedFromPool} from pools), refused ${r.pointsRefused}`,
    ...(r.holds
      ? [`Holds: ${r.holds.amount} held per call; refused when holding: ${r.holds.refusedAtHold}, when settling above the hold: ${r.holds.refusedAtSettle}`]
      : []),
    `Pools: ${r.pool.start} at the start, ${r.pool.end} at the end${r.pool.emptiedAt ? `, empty from ${r.pool.emptiedAt}` : ''}`,
    '',
  ];
  if (r.blocked.length) {
    lines.push(`Quota ran out ${r.blocked.length} time(s):`);
    const shown = r.blocked.slice(0, 20);
    lines.push(
      table(
        ['FROM', 'UNTIL', 'WINDOW', 'REFUSED', 'FROM POOLS'],
        shown.map((b) => [b.from, b.until, b.window, b.refused, b.servedFromPool]),
      ),
    );
    if (r.blocked.length > shown.length) lines.push(`… and ${r.blocked.length - shown.length} more (see --json)`);
  } else lines.push('Quota never ran out.');
  lines.push('', 'Available quota over time:', chart);
  return lines.join('\n');
}
