// Where a server's CPU goes, by layer: the V8 CPU profiles of every thread of a server process
// (node --cpu-prof, one .cpuprofile per thread, written when it exits), their samples inside the
// measured time windows attributed to the innermost frame of a known layer. A native call is
// counted with the JavaScript that made it (a socket write with the answer that wrote it, a SQLite
// step with the store that ran it). Samples outside the windows (start-up, warm-up, the other
// measure) are left out; idle time is not CPU and is left out too.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A span of the system's monotonic clock, in µs (process.hrtime, the clock V8's profiler stamps). */
export interface Window {
  from: number;
  to: number;
}

export const nowUs = (): number => Number(process.hrtime.bigint() / 1000n);

interface Frame {
  functionName: string;
  url: string;
}

interface ProfileNode {
  id: number;
  callFrame: Frame;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

// The layers a login or a consume crosses, each a test on one frame. Listed from the most specific:
// the first that matches a frame names it. Server paths are matched on their folder, so the table
// fits any commit's files.
const RULES: [layer: string, test: (f: Frame) => boolean][] = [
  ['log line', (f) => f.url.includes('/server/lib/log.ts')],
  ['metrics', (f) => f.url.includes('/server/lib/metrics.ts') || f.url.includes('/prom-client/')],
  ['rate limit', (f) => f.url.includes('/server/auth/rate-limit.ts')],
  ['JWKS cache', (f) => /\/server\/auth\/jwks[^/]*\.ts/.test(f.url)],
  ['signature (worker thread)', (f) => f.url.includes('/server/crypto/worker.mjs') || f.url.includes('/server/crypto/ops.mjs')],
  ['signature hand-off', (f) => f.url.includes('/server/crypto/')],
  ['ID token checks', (f) => /\/server\/auth\/(id-token|jws-compact|provider-token|apple-token)\.ts/.test(f.url) || f.url.includes('/node_modules/jose/')],
  ['access token', (f) => /\/server\/auth\/(access-token|token-family)\.ts/.test(f.url)],
  ['database', (f) => f.url.includes('/server/store/') || f.url.includes('/better-sqlite3/') || /\/node_modules\/pg[-/]/.test(f.url)],
  ['job queue, webhook delivery', (f) => /\/server\/(webhooks|jobs)\//.test(f.url)],
  ['outbox and alerts', (f) => /\/server\/(events|audit)\//.test(f.url) || /\/server\/points\/(alerts|state-after)\.ts/.test(f.url)],
  ['points rules', (f) => f.url.includes('/server/points/')],
  ['login rules', (f) => /\/server\/(auth|users)\//.test(f.url)],
  ['credential check', (f) => f.url.includes('/server/rpc/access.ts')],
  ['answer (encode, write)', (f) => /^(writeJson|writeResult|writeError)$/.test(f.functionName) && f.url.includes('/server/gateway/')],
  ['HTTP parse and route', (f) => f.url.includes('/server/gateway/') || /^node:_http_(server|common|incoming)$/.test(f.url)],
  ['HTTP answer (node:http)', (f) => f.url === 'node:_http_outgoing'],
  ['gRPC (grpc-js, http2)', (f) => f.url.includes('/@grpc/') || f.url.startsWith('node:internal/http2') || f.url.includes('/server/grpc/')],
  ['call chain (check, dispatch)', (f) => f.url.includes('/server/rpc/')],
  ['thread messages', (f) => f.url.startsWith('node:internal/worker') || f.functionName === 'postMessage' || f.functionName === 'receiveMessageOnPort'],
  [
    'sockets and streams',
    (f) => /^node:(net|internal\/(stream_base_commons|streams\/))/.test(f.url) || f.functionName === 'writev' || f.functionName === 'writeUtf8String',
  ],
  ['GC', (f) => f.functionName === '(garbage collector)'],
  ['V8 and libuv', (f) => f.functionName === '(program)'],
];

/** The layer of a frame, or null (it takes its caller's). */
function ruleOf(f: Frame): string | null {
  for (const [layer, test] of RULES) if (test(f)) return layer;
  return null;
}

/** CPU µs per call by layer, over the profiles in `dir` (all threads of the processes profiled
 *  there), counting the samples inside `windows`; `calls` made in them. */
export function layerProfile(dir: string, windows: Window[], calls: number): Record<string, number> {
  const total = new Map<string, number>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
    const p = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
    const byId = new Map(p.nodes.map((n) => [n.id, n]));
    // A node's layer: its own frame's, else its caller's (from the root down).
    const layer = new Map<number, string>();
    const root = p.nodes[0]!;
    const stack: [ProfileNode, string][] = [[root, 'other JavaScript']];
    while (stack.length) {
      const [n, inherited] = stack.pop()!;
      const own = n.callFrame.functionName === '(idle)' ? 'idle' : (ruleOf(n.callFrame) ?? inherited);
      layer.set(n.id, own);
      for (const c of n.children ?? []) stack.push([byId.get(c)!, own]);
    }
    let t = p.startTime;
    for (let i = 0; i < p.samples.length; i++) {
      t += p.timeDeltas[i]!;
      const d = p.timeDeltas[i + 1] ?? 0; // a sample stands for the time until the next one
      if (!windows.some((w) => t >= w.from && t < w.to)) continue;
      const l = layer.get(p.samples[i]!)!;
      if (l !== 'idle') total.set(l, (total.get(l) ?? 0) + d);
    }
  }
  return Object.fromEntries([...total].sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, Math.round((v / calls) * 10) / 10]));
}

/** `r` scaled so that its layers add up to `total` (the CPU per call /proc measured): a sample's
 *  time is wall time between samples, which counts a thread preempted on a busy machine as running,
 *  so the profile gives the shares and /proc the amount. */
export function scaledTo(r: Record<string, number>, total: number | null): Record<string, number> {
  const sum = Object.values(r).reduce((a, b) => a + b, 0);
  if (total === null || sum === 0) return r;
  return Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Math.round(((v * total) / sum) * 10) / 10]));
}

/** Two layer profiles side by side, as text: µs per call, old → new (or as `sides` names them). */
export function formatLayers(title: string, old: Record<string, number>, now: Record<string, number>, sides = 'old → new'): string {
  const names = [...new Set([...Object.keys(old), ...Object.keys(now)])].sort((a, b) => (now[b] ?? 0) - (now[a] ?? 0));
  const sum = (r: Record<string, number>) => Math.round(Object.values(r).reduce((a, b) => a + b, 0) * 10) / 10;
  let out = `${title}: server CPU µs per call by layer (all threads), ${sides}\n`;
  for (const n of [...names, 'total'])
    out += `  ${n.padEnd(30)} ${String(n === 'total' ? sum(old) : (old[n] ?? 0)).padStart(8)} → ${String(n === 'total' ? sum(now) : (now[n] ?? 0)).padStart(8)}\n`;
  return out;
}
