// Sustained load: a mixed load — native login (Apple stand-in), refresh
// (grant_type=refresh_token), consume and summary — from this process over loopback against a real
// `gatehouse serve` child, bounded in time (default 60 s) and in count. Checks: no 5xx, no errors;
// the server's RSS (sampled every second from /proc) is flat after warm-up. Reports throughput and
// p50/p99 per operation, RSS at 25/50/75/100 % and the growth after warm-up.
//
//   node --import tsx bench/sustained-load.ts [--seconds 60] [--trace-gc]
// Writes bench/results/sustained-load.json. `sustainedLoad({seconds})` is exported for the bench runner.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { api, http } from '../test/helpers/http.ts';
import { startIdp } from '../test/helpers/idp.ts';
import { ROOT, spawnServer } from '../test/helpers/server.ts';
import { round, rssMiB } from './lib/load.ts';

type Op = 'login' | 'refresh' | 'consume' | 'summary';
const OPS: Op[] = ['login', 'refresh', 'consume', 'summary'];
// Weights of the mix (per 20 calls).
const MIX: Op[] = [...Array(3).fill('login'), ...Array(3).fill('refresh'), ...Array(9).fill('consume'), ...Array(5).fill('summary')];
const REALM = 'load';
const AUD = 'com.example.load';
const WORKERS = 8;
const USERS_PER_WORKER = 8;
const MAX_CALLS = 2_000_000;
const WARMUP_FRACTION = 0.25;

export interface SustainedLoadOptions {
  seconds: number;
  /** Print progress and the table (default true when run directly). */
  print?: boolean;
  /** Seconds of load before RSS must stay flat (default a quarter of the run). The server's RSS
   *  climbs for its first ~30 s under this load (V8 growing its heap spaces, SQLite its page
   *  cache), then holds: a 600 s run stays within ±2 MiB of its 30 s figure. */
  warmupSeconds?: number;
  /** Run the server with --trace-gc and report its live heap after each full GC: tells a leak (the
   *  live heap keeps rising) from the allocator and V8 settling (RSS creeps, the live heap is flat). */
  traceGc?: boolean;
}

interface UserState {
  sub: string;
  userId: string;
  refreshToken: string;
}

export async function sustainedLoad(opts: SustainedLoadOptions): Promise<object> {
  const seconds = opts.seconds;
  const idp = await startIdp({ audience: AUD });
  const srv = await spawnServer({
    args: ['--apple-jwks-url', idp.jwksUrl, '--apple-issuer', idp.issuer, '--login-rate-limit', '0', '--log-level', 'warn'],
    nodeArgs: opts.traceGc ? ['--trace-gc'] : [],
  });
  const pid = srv.proc.pid!;
  // --trace-gc lines: "… Mark-Compact 40.1 (52.3) -> 31.2 (53.0) MB, …": the live heap after a full GC.
  const liveHeap: { at: number; mib: number }[] = []; // at: performance.now()
  if (opts.traceGc) {
    srv.proc.stdout!.setEncoding('utf8').on('data', (d: string) => {
      for (const m of d.matchAll(/Mark-Compact[^\n]*?-> ([\d.]+) \(/g)) liveHeap.push({ at: performance.now(), mib: Number(m[1]) });
    });
  }
  try {
    const admin = api(srv.http, srv.adminKey);
    const must = async (p: Promise<{ status: number; text: string; body: any }>) => {
      const r = await p;
      if (r.status !== 200) throw new Error(`setup: ${r.status} ${r.text}`);
      return r.body;
    };
    await must(admin.post('/api/admin/realms', { id: REALM, name: REALM }));
    await must(admin.put(`/api/admin/realms/${REALM}/providers/apple`, { clientId: AUD, enabled: true }));
    await must(admin.post(`/api/admin/realms/${REALM}/clients`, { clientId: 'app', name: 'App', type: 'first_party', redirectUris: [] }));
    const mapping = (
      await must(
        admin.put(`/api/bill/${REALM}/entitlement-mappings/batch`, {
          paymentProvider: 'stripe',
          externalProductId: 'load',
          updates: [{ entitlementKey: 'load', quotaWindows: [{ windowSeconds: 3600, limit: 1_000_000_000 }] }],
        }),
      )
    ).mappings[0];

    const login = async (sub: string) =>
      http(srv.http, 'POST', `/api/oauth/${REALM}/apple/native-login`, {
        body: { identityToken: await idp.token({ sub, email: `${sub}@load.example` }), clientId: 'app' },
      });

    // Users: first login creates them; each gets a subscription and a large top-up.
    const pools: UserState[][] = [];
    for (let w = 0; w < WORKERS; w++) {
      const pool: UserState[] = [];
      for (let i = 0; i < USERS_PER_WORKER; i++) {
        const sub = `load-${w}-${i}`;
        const r = await login(sub);
        if (r.status !== 200) throw new Error(`setup login: ${r.status} ${r.text}`);
        const userId = r.body.userId as string;
        await must(admin.post(`/api/bill/${REALM}/subscriptions`, { userId, mappingId: mapping.mappingId }));
        await must(admin.post(`/api/points/${REALM}/users/${userId}/grants`, { kind: 'topup_credit', amount: 1_000_000_000 }));
        pool.push({ sub, userId, refreshToken: r.body.refreshToken });
      }
      pools.push(pool);
    }

    const lat: Record<Op, number[]> = { login: [], refresh: [], consume: [], summary: [] };
    const errors: Record<Op, number> = { login: 0, refresh: 0, consume: 0, summary: 0 };
    const statuses: Record<string, number> = {};
    const firstErrors: string[] = [];
    const rss: { t: number; mib: number }[] = [];
    let calls = 0;

    const call = async (op: Op, u: UserState): Promise<void> => {
      let r;
      switch (op) {
        case 'login':
          r = await login(u.sub);
          if (r.status === 200) u.refreshToken = r.body.refreshToken;
          break;
        case 'refresh':
          r = await http(srv.http, 'POST', `/api/oauth/${REALM}/token`, {
            form: { grant_type: 'refresh_token', refresh_token: u.refreshToken, client_id: 'app' },
          });
          if (r.status === 200) u.refreshToken = r.body.refresh_token;
          break;
        case 'consume':
          r = await admin.post(`/api/points/${REALM}/consume`, { userId: u.userId, amount: 1 });
          break;
        case 'summary':
          r = await admin.get(`/api/points/${REALM}/users/${u.userId}/summary`);
          break;
      }
      statuses[`${op} ${r.status}`] = (statuses[`${op} ${r.status}`] ?? 0) + 1;
      if (r.status !== 200) {
        errors[op]++;
        if (firstErrors.length < 5) firstErrors.push(`${op}: ${r.status} ${r.text.slice(0, 200)}`);
      }
    };

    const t0 = performance.now();
    const deadline = t0 + seconds * 1000;
    const sampler = setInterval(() => {
      void rssMiB(pid).then((mib) => mib !== null && rss.push({ t: (performance.now() - t0) / 1000, mib }));
    }, 1000);
    const first = await rssMiB(pid);
    if (first !== null) rss.push({ t: 0, mib: first });
    const progress = opts.print
      ? setInterval(
          () => process.stderr.write(`  ${Math.round((performance.now() - t0) / 1000)} s, ${calls} calls, RSS ${rss.at(-1)?.mib ?? '?'} MiB\n`),
          10_000,
        )
      : null;
    try {
      await Promise.all(
        pools.map(async (pool, w) => {
          // Each worker owns its users: a refresh token is never used by two calls at once.
          let k = w;
          while (performance.now() < deadline && calls < MAX_CALLS) {
            calls++;
            const op = MIX[(k * 7 + w) % MIX.length]!;
            const u = pool[k % pool.length]!;
            k++;
            const s = performance.now();
            try {
              await call(op, u);
            } catch (e) {
              errors[op]++;
              if (firstErrors.length < 5) firstErrors.push(`${op}: ${(e as Error).message}`);
            }
            lat[op].push(performance.now() - s);
          }
        }),
      );
    } finally {
      clearInterval(sampler);
      if (progress) clearInterval(progress);
    }
    const elapsed = (performance.now() - t0) / 1000;
    const last = await rssMiB(pid);
    if (last !== null) rss.push({ t: elapsed, mib: last });

    const pct = (xs: number[], p: number) => {
      if (xs.length === 0) return 0;
      const s = [...xs].sort((a, b) => a - b);
      return round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!, 2);
    };
    const ops = Object.fromEntries(
      OPS.map((op) => [
        op,
        { calls: lat[op].length, perSecond: round(lat[op].length / elapsed, 1), p50Ms: pct(lat[op], 50), p99Ms: pct(lat[op], 99), errors: errors[op] },
      ]),
    );
    const at = (frac: number) => {
      const t = frac * elapsed;
      let best = rss[0];
      for (const x of rss) if (Math.abs(x.t - t) < Math.abs((best?.t ?? 0) - t)) best = x;
      return best?.mib ?? null;
    };
    const warmAt = opts.warmupSeconds ?? WARMUP_FRACTION * elapsed;
    const afterWarm = rss.filter((x) => x.t >= warmAt);
    const warmMib = afterWarm[0]?.mib ?? null;
    const endMib = rss.at(-1)?.mib ?? null;
    const fivexx = Object.entries(statuses)
      .filter(([k]) => / 5\d\d$/.test(k))
      .reduce((n, [, v]) => n + v, 0);
    const totalErrors = Object.values(errors).reduce((a, b) => a + b, 0);
    const result = {
      seconds: round(elapsed, 1),
      workers: WORKERS,
      users: WORKERS * USERS_PER_WORKER,
      calls,
      throughput: round(calls / elapsed, 1),
      ops,
      statuses,
      errors: totalErrors,
      fivexx,
      firstErrors,
      rssMiB: {
        start: rss[0]?.mib ?? null,
        p25: at(0.25),
        p50: at(0.5),
        p75: at(0.75),
        p100: endMib,
        peakAfterWarmup: afterWarm.length ? Math.max(...afterWarm.map((x) => x.mib)) : null,
        growthAfterWarmup: warmMib !== null && endMib !== null ? round(endMib - warmMib, 1) : null,
        samples: rss.length,
      },
      // "Flat": at most 10 MiB more at the end than right after warm-up (reported, not enforced:
      // see the note in the issue report).
      rssFlat: warmMib !== null && endMib !== null ? endMib - warmMib <= 10 : null,
      ...(opts.traceGc ? { liveHeapAfterFullGcMiB: liveHeapSummary(liveHeap, t0 + warmAt * 1000) } : {}),
      ok: totalErrors === 0 && fivexx === 0,
      when: new Date().toISOString(),
    };
    const dir = join(ROOT, 'bench', 'results');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'sustained-load.json'), JSON.stringify(result, null, 2) + '\n');
    if (opts.print) {
      console.log(
        `sustained load: ${result.seconds} s, ${WORKERS} workers, ${result.users} users, ${calls} calls, ${result.throughput}/s, errors ${totalErrors}, 5xx ${fivexx}`,
      );
      console.table(ops);
      console.log(
        `RSS MiB: start ${result.rssMiB.start}, 25% ${result.rssMiB.p25}, 50% ${result.rssMiB.p50}, 75% ${result.rssMiB.p75}, 100% ${result.rssMiB.p100}; growth after warm-up ${result.rssMiB.growthAfterWarmup} MiB (${result.rssFlat ? 'flat' : 'NOT flat'})`,
      );
      if (opts.traceGc) console.log('live heap after full GCs (MiB):', JSON.stringify((result as { liveHeapAfterFullGcMiB?: unknown }).liveHeapAfterFullGcMiB));
      if (firstErrors.length) console.log('first errors:\n  ' + firstErrors.join('\n  '));
    }
    return result;
  } finally {
    await srv.stop();
    await idp.close();
  }
}

/** The live heap after the full GCs from `warmAt` (performance.now()) on: first, last, lowest, highest. */
function liveHeapSummary(xs: { at: number; mib: number }[], warmAt: number) {
  const warm = xs.filter((x) => x.at >= warmAt);
  if (warm.length === 0) return { fullGcs: xs.length };
  const mibs = warm.map((x) => x.mib);
  return { fullGcs: xs.length, afterWarmup: warm.length, first: mibs[0], last: mibs.at(-1), min: Math.min(...mibs), max: Math.max(...mibs) };
}

if (import.meta.filename === process.argv[1]) {
  const i = process.argv.indexOf('--seconds');
  const seconds = i > 0 ? Number(process.argv[i + 1]) : 60;
  if (!(seconds > 0)) throw new Error('--seconds: a positive number');
  const r = (await sustainedLoad({ seconds, print: true, traceGc: process.argv.includes('--trace-gc') })) as { ok: boolean };
  process.exitCode = r.ok ? 0 : 1;
}
