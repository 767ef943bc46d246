// Two checkouts of gatehouse served side by side and driven by one client in alternating rounds:
// consume over gRPC and native login over HTTP, 16 in flight, with each server's CPU per call and
// bare `jose.jwtVerify` measured in every round. The way to tell a change's cost from the machine's
// drift, which moves whole `npm run bench` runs by a fifth on a shared machine.
//   git worktree add --detach ../old <commit> && ln -s "$PWD/node_modules" ../old/node_modules
//   node --import tsx bench/compare-commits.ts --old ../old [--new .] [--rounds 12]
// or, as a guard that later work costs nothing (`npm run bench:compare -- --against <commit>`):
//   --against REV checks REV out into a temporary worktree itself, and --max-cpu-growth PCT exits 1
//   when consume's or login's server CPU per call (all threads) grew by more than PCT percent.
//   --layers DIR profiles both servers (node --cpu-prof, every thread, into DIR) and prints where
//   each one's CPU per call went in the counted rounds, by layer (lib/cpu-layers.ts), old → new;
//   the profiler's own cost is in both sides' figures then.
// Each checkout's own seed (bench/consume-history.ts) and server helper (test/helpers/server.ts)
// are used, so the servers are exactly those commits'; the client is this checkout's.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { closeGrpcClients } from '../test/helpers/grpc.ts';
import { startIdp } from '../test/helpers/idp.ts';
import type { SpawnedServer } from '../test/helpers/server.ts';
import { formatLayers, layerProfile, nowUs, scaledTo, type Window } from './lib/cpu-layers.ts';
import { AUD, addPools, bareVerify, configureRealm, consumeLoad, firstLogins, loginLoad, median, serverArgs, signTokens } from './lib/gatehouse.ts';
import { round, withCpu } from './lib/load.ts';

const { values: args } = parseArgs({
  options: {
    old: { type: 'string' },
    new: { type: 'string', default: '.' },
    rounds: { type: 'string', default: '12' },
    calls: { type: 'string', default: '6000' },
    logins: { type: 'string', default: '2500' },
    only: { type: 'string' },
    against: { type: 'string' },
    'max-cpu-growth': { type: 'string' },
    layers: { type: 'string' },
  },
});
// Checked against the two names below.
const MEASURES = (args.only === undefined ? ['consume', 'login'] : [args.only]) as Array<'consume' | 'login'>;
const MAX_GROWTH = args['max-cpu-growth'] === undefined ? null : Number(args['max-cpu-growth']);
if (
  (args.old === undefined) === (args.against === undefined) ||
  !MEASURES.every((m) => m === 'consume' || m === 'login') ||
  (MAX_GROWTH !== null && !(MAX_GROWTH >= 0))
) {
  process.stderr.write(
    'usage: node --import tsx bench/compare-commits.ts (--old DIR | --against REV) [--new DIR] [--rounds N --calls N --logins N] [--only consume|login] [--max-cpu-growth PCT] [--layers DIR]\n',
  );
  process.exit(2);
}

/** `--against REV`: a detached worktree of REV beside this checkout's node_modules, removed at the end. */
function checkoutOf(rev: string): { dir: string; remove: () => void } {
  const repo = resolve(args.new!);
  const dir = join(mkdtempSync(join(tmpdir(), 'gatehouse-against-')), 'old');
  execFileSync('git', ['-C', repo, 'worktree', 'add', '--detach', dir, rev], { stdio: ['ignore', 'ignore', 'inherit'] });
  symlinkSync(join(repo, 'node_modules'), join(dir, 'node_modules'));
  return {
    dir,
    remove: () => {
      execFileSync('git', ['-C', repo, 'worktree', 'remove', '--force', dir], { stdio: 'ignore' });
      rmSync(resolve(dir, '..'), { recursive: true, force: true });
    },
  };
}
const against = args.against === undefined ? null : checkoutOf(args.against);
const OLD_DIR = against ? against.dir : args.old!;
const ROUNDS = Number(args.rounds);
const CALLS = Number(args.calls);
const LOGINS = Number(args.logins);
/** Uncounted rounds first, one in each order. */
const WARMUP = 2;

interface Side {
  srv: SpawnedServer;
  consumer: string;
  returning: string[];
}

const idp = await startIdp({ audience: AUD });
const sides: Record<'old' | 'new', Side> = {} as Record<'old' | 'new', Side>;
try {
  for (const [name, dir] of [
    ['old', OLD_DIR],
    ['new', args.new!],
  ] as const) {
    const root = resolve(dir);
    const { seed } = await import(join(root, 'bench', 'consume-history.ts'));
    const { spawnServer, tempDir } = await import(join(root, 'test', 'helpers', 'server.ts'));
    const work = tempDir('gatehouse-compare-');
    const dbPath = join(work, 'compare.db');
    const users = (await seed(dbPath, { small: 1_000, large: 10 })) as { small: string };
    const nodeArgs = args.layers === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', join(resolve(args.layers), name)];
    const srv = (await spawnServer({ dir: work, dbPath, args: serverArgs(idp), nodeArgs })) as SpawnedServer;
    await configureRealm(srv, false);
    await addPools(srv, [users.small]);
    sides[name] = { srv, consumer: users.small, returning: await firstLogins(srv, idp, 100) };
  }

  type Sample = { perSecond: number; mainUs: number | null; allUs: number | null };
  const samples = { consume: { old: [] as Sample[], new: [] as Sample[] }, login: { old: [] as Sample[], new: [] as Sample[] } };
  const verify: number[] = [];
  /** The counted rounds' time spans, for the layer profiles. */
  const spans = { consume: { old: [] as Window[], new: [] as Window[] }, login: { old: [] as Window[], new: [] as Window[] } };
  const timed = async <T>(what: 'consume' | 'login', name: 'old' | 'new', counted: boolean, f: () => Promise<T>): Promise<T> => {
    const from = nowUs();
    const r = await f();
    if (counted) spans[what][name].push({ from, to: nowUs() });
    return r;
  };
  for (let r = 0; r < ROUNDS + WARMUP; r++) {
    const order = r % 2 ? (['old', 'new'] as const) : (['new', 'old'] as const);
    for (const name of order) {
      const { srv, consumer, returning } = sides[name];
      const keep = (what: 'consume' | 'login', x: Awaited<ReturnType<typeof withCpu>>) => {
        if (r >= WARMUP) samples[what][name].push({ perSecond: x.throughput, mainUs: x.cpu.serverMainUs, allUs: x.cpu.serverAllUs });
      };
      const counted = r >= WARMUP;
      if (MEASURES.includes('consume'))
        keep('consume', await timed('consume', name, counted, () => withCpu(srv.proc.pid!, () => consumeLoad(srv, consumer, CALLS, 16))));
      if (MEASURES.includes('login')) {
        const tokens = await signTokens(idp, LOGINS, returning);
        keep('login', await timed('login', name, counted, () => withCpu(srv.proc.pid!, () => loginLoad(srv, tokens, 16))));
        if (name === 'old' && r >= WARMUP) verify.push((await bareVerify(idp, tokens, 1)).throughput);
      }
    }
    process.stderr.write(r < WARMUP ? `warm-up round ${r + 1}/${WARMUP}\n` : `round ${r - WARMUP + 1}/${ROUNDS}\n`);
  }

  const med = (xs: (number | null)[]) => {
    const ys = xs.filter((x): x is number => x !== null);
    return ys.length ? round(median(ys), 1) : null;
  };
  const report = (what: 'consume' | 'login') => {
    const { old, new: now } = samples[what];
    return {
      perSecond: { old: med(old.map((s) => s.perSecond)), new: med(now.map((s) => s.perSecond)) },
      newOverOld: round(median(now.map((s, i) => s.perSecond / old[i]!.perSecond)), 3),
      serverMainThreadUsPerCall: { old: med(old.map((s) => s.mainUs)), new: med(now.map((s) => s.mainUs)) },
      serverAllThreadsUsPerCall: { old: med(old.map((s) => s.allUs)), new: med(now.map((s) => s.allUs)) },
    };
  };
  const out = {
    old: args.against ?? resolve(OLD_DIR),
    new: resolve(args.new!),
    rounds: ROUNDS,
    ...(MEASURES.includes('consume') ? { consume: report('consume') } : {}),
    ...(MEASURES.includes('login')
      ? {
          login: {
            ...report('login'),
            overBareVerify: {
              old: round(median(samples.login.old.map((s, i) => s.perSecond / verify[i]!)), 3),
              new: round(median(samples.login.new.map((s, i) => s.perSecond / verify[i]!)), 3),
            },
          },
          bareVerifyPerSecond: med(verify),
        }
      : {}),
  };
  console.log(JSON.stringify(out, null, 2));
  if (args.layers !== undefined) {
    // A profile is written when its process exits.
    for (const s of Object.values(sides)) await s.srv.stop();
    for (const what of MEASURES) {
      const measured = report(what).serverAllThreadsUsPerCall;
      const per = (name: 'old' | 'new') =>
        scaledTo(layerProfile(join(resolve(args.layers!), name), spans[what][name], (what === 'consume' ? CALLS : LOGINS) * ROUNDS), measured[name]);
      process.stderr.write(formatLayers(what, per('old'), per('new')));
    }
  }
  if (MAX_GROWTH !== null) {
    // All threads, so work moved to the signature worker still counts; the main thread where
    // /proc gives no per-thread figure.
    const grown = MEASURES.flatMap((what) => {
      const r = report(what);
      const cpu = r.serverAllThreadsUsPerCall.old !== null ? r.serverAllThreadsUsPerCall : r.serverMainThreadUsPerCall;
      if (cpu.old === null || cpu.new === null) return [`${what}: no CPU figure`];
      const growth = (cpu.new / cpu.old - 1) * 100;
      process.stderr.write(`${what}: server CPU per call ${cpu.old} → ${cpu.new} µs (${growth >= 0 ? '+' : ''}${growth.toFixed(1)}%)\n`);
      return growth > MAX_GROWTH ? [`${what} grew ${growth.toFixed(1)}% (allowed ${MAX_GROWTH}%)`] : [];
    });
    if (grown.length) {
      process.stderr.write(`FAIL: ${grown.join('; ')}\n`);
      process.exitCode = 1;
    } else process.stderr.write(`ok: CPU per call within ${MAX_GROWTH}%\n`);
  }
} finally {
  closeGrpcClients();
  for (const s of Object.values(sides)) await s.srv.stop();
  await idp.close();
  against?.remove();
}
