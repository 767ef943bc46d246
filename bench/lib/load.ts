// A closed-loop load runner: `concurrency` workers each run `op` back to back until `count` calls
// are done; latencies are kept for percentiles. Bounded in count, and each call has a timeout.
import { readFileSync } from 'node:fs';

export interface LoadResult {
  calls: number;
  seconds: number;
  throughput: number;
  p50Ms: number;
  p99Ms: number;
  failed: number;
}

export async function runLoad(count: number, concurrency: number, op: (i: number) => Promise<boolean>): Promise<LoadResult> {
  const latencies = new Float64Array(count);
  let next = 0;
  let failed = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (;;) {
        const i = next++;
        if (i >= count) return;
        const s = performance.now();
        const ok = await op(i);
        latencies[i] = performance.now() - s;
        if (!ok) failed++;
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const sorted = Array.from(latencies).sort((a, b) => a - b);
  const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
  return { calls: count, seconds, throughput: count / seconds, p50Ms: round(pct(50)), p99Ms: round(pct(99)), failed };
}

export const round = (n: number, digits = 3) => Math.round(n * 10 ** digits) / 10 ** digits;

/** Resident set size of a process in MiB (Linux /proc), or null. */
export async function rssMiB(pid: number): Promise<number | null> {
  const { readFile } = await import('node:fs/promises');
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const m = /VmRSS:\s+(\d+) kB/.exec(status);
    return m ? round(Number(m[1]) / 1024, 1) : null;
  } catch {
    return null;
  }
}

/** A server's garbage collection so far, from its /metrics (prom-client's default metrics): the
 *  seconds V8 spent in full (mark-compact) and in young-generation collections, and the old space's
 *  committed size. How much a run's heap was let grow, and the CPU that cost, differs from run to
 *  run with V8's heap-growing heuristics (README, "Benchmarks"). */
export async function serverGc(http: string): Promise<{ majorS: number; minorS: number; oldSpaceMiB: number }> {
  const text = await (await fetch(`${http}/metrics`)).text();
  // A kind of collection not yet run has no line.
  const value = (re: RegExp) => Number(re.exec(text)?.[1] ?? 0);
  return {
    majorS: value(/^nodejs_gc_duration_seconds_sum\{kind="major"\} (\S+)$/m),
    minorS: value(/^nodejs_gc_duration_seconds_sum\{kind="minor"\} (\S+)$/m),
    oldSpaceMiB: round(value(/^nodejs_heap_space_size_total_bytes\{space="old"\} (\S+)$/m) / 2 ** 20, 1),
  };
}

/** Peak resident set size (VmHWM) of a process in MiB. */
export async function peakRssMiB(pid: number): Promise<number | null> {
  const { readFile } = await import('node:fs/promises');
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(await readFile(`/proc/${pid}/status`, 'utf8'));
    return m ? round(Number(m[1]) / 1024, 1) : null;
  } catch {
    return null;
  }
}

/** CPU time used so far, in µs (Linux /proc, clock ticks of 10 ms): the whole process and its main
 *  thread. Null where /proc is not there. */
export function processCpuUs(pid: number): { all: number; main: number } | null {
  const ticks = (path: string) => {
    const f = readFileSync(path, 'utf8');
    const fields = f.slice(f.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000; // utime + stime
  };
  try {
    return { all: ticks(`/proc/${pid}/stat`), main: ticks(`/proc/${pid}/task/${pid}/stat`) };
  } catch {
    return null;
  }
}

/** CPU per call of one measured step: the serving process's main thread and all its threads, and
 *  this (the load-generating) process. Which side runs out first is the step's bottleneck. */
export interface CpuPerCall {
  serverMainUs: number | null;
  serverAllUs: number | null;
  clientUs: number;
}

/** A process and its children (a `serve --workers N` primary and its workers), from /proc. */
export function withChildren(pid: number): number[] {
  try {
    return [pid, ...readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number)];
  } catch {
    return [pid];
  }
}

/** `serverPid`: the serving process, or several (a cluster: their CPU is summed). */
export async function withCpu(serverPid: number | number[] | null, calls: () => Promise<LoadResult>): Promise<LoadResult & { cpu: CpuPerCall }> {
  const pids = serverPid === null ? [] : Array.isArray(serverPid) ? serverPid : [serverPid];
  const cpuOf = () => {
    let all = 0;
    let main = 0;
    for (const pid of pids) {
      const u = processCpuUs(pid);
      if (u === null) return null;
      all += u.all;
      main += u.main;
    }
    return pids.length ? { all, main } : null;
  };
  const s0 = cpuOf();
  const c0 = process.cpuUsage();
  const r = await calls();
  const c = process.cpuUsage(c0);
  const s1 = cpuOf();
  const per = (us: number) => round(us / r.calls, 1);
  return {
    ...r,
    cpu: {
      serverMainUs: s0 && s1 ? per(s1.main - s0.main) : null,
      serverAllUs: s0 && s1 ? per(s1.all - s0.all) : null,
      clientUs: per(c.user + c.system),
    },
  };
}
