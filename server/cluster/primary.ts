// `serve --workers N`: N processes serving the same HTTP and gRPC ports through node:cluster. This
// primary serves no request. It migrates the database before any worker opens it, runs the WAL
// checkpoints of the file, chooses the ports, forks the workers (worker.ts), prints the one
// ready line once every worker listens, restarts a worker that dies (with a growing delay, so a
// worker that cannot start does not spin), and on SIGTERM or SIGINT drains every worker and exits.
//
// The ports: node:cluster's primary holds each listening socket and hands the connections to the
// workers in turn; a worker's listen() — node:http's, and grpc-js's bindAsync, whose http2 server
// is a net.Server — asks the primary for the socket of its address. The workers therefore need the
// same concrete address: a port 0 is chosen here, once. (A worker's own listen(0) would be given a
// port that node:cluster frees again when no worker holds it, so a worker restarted after all of
// them died would move to another port.)
import cluster, { type Worker } from 'node:cluster';
import { createServer, type Server } from 'node:net';
import { openBackend } from '../backend.ts';
import { type Config, parseAddr } from '../config.ts';
import { CryptoOffload } from '../crypto/offload.ts';
import { createLogger, type Logger } from '../lib/log.ts';
import { shownDatabase } from '../lib/redact.ts';
import { stopSignal } from '../lib/stop-signal.ts';
import { loadSecrets } from '../secrets-key.ts';
import { isWorkerMessage, WORKER_ENV, type WorkerAssignment } from './messages.ts';

/** A worker that served this long before it died is restarted at once: it is not crash-looping. */
const STABLE_MS = 30_000;
/** The delay before the second restart in a row of a slot; it doubles with each further one. */
const FIRST_DELAY_MS = 100;
const MAX_DELAY_MS = 30_000;
/** How long the workers get to drain (their own grace is 10 s) before they are killed. */
const DRAIN_LIMIT_MS = 20_000;

interface Slot {
  slot: number;
  worker: Worker | null;
  /** When its current worker said it listens. */
  readyAt: number | null;
  /** Restarts in a row of workers that died before STABLE_MS. */
  failures: number;
  restart: NodeJS.Timeout | null;
}

export interface ClusterOptions {
  /** Where the ready line goes (default stdout). */
  out?: (line: string) => void;
  log?: Logger;
}

/** Runs the cluster until SIGTERM or SIGINT; resolves whether every worker stopped cleanly.
 *  Rejects if a worker cannot start. */
export async function runCluster(config: Config, opts: ClusterOptions = {}): Promise<boolean> {
  const out = opts.out ?? ((line: string) => process.stdout.write(`${line}\n`));
  const log = opts.log ?? createLogger({ level: config.logLevel, base: { pid: process.pid } });
  if (config.db === ':memory:' || config.db === '') throw new Error('--workers: the workers share one database file; an in-memory database cannot be shared');
  // Migrations run here, once, before any worker opens the database (both backends migrate on
  // open); a SQLite file's WAL checkpoints run here too. PostgreSQL needs nothing more held open.
  // The key of the secrets at rest is made here, once, when it is missing (the workers read it).
  const backend = await openBackend(config, log, loadSecrets(config, log));
  // The primary signs nothing: its signature thread is here for the checkpoints' tasks alone.
  const thread = new CryptoOffload();
  const maintenance = backend.startMaintenance?.(log, true, thread) ?? null;
  if (!maintenance) await backend.close();
  const closeDb = async () => {
    if (!maintenance) return;
    await maintenance.stop();
    await thread.stopWorker();
    await backend.close();
  };
  let assignment: Config;
  try {
    assignment = { ...config, ...(await choosePorts(config)) };
  } catch (e) {
    await closeDb();
    throw e;
  }

  const slots: Slot[] = Array.from({ length: config.workers }, (_, slot) => ({ slot, worker: null, readyAt: null, failures: 0, restart: null }));
  let booting = true;
  let stopping = false;
  let bootDone!: (err: Error | null) => void;
  const booted = new Promise<void>((resolve, reject) => (bootDone = (err) => (err ? reject(err) : resolve())));
  booted.catch(() => {}); // a signal may end the wait first

  const fork = (s: Slot) => {
    const env: WorkerAssignment = { slot: s.slot, config: assignment };
    const w = cluster.fork({ [WORKER_ENV]: JSON.stringify(env) });
    const pid = w.process.pid;
    s.worker = w;
    s.readyAt = null;
    let failure: string | null = null;
    w.on('message', (m: unknown) => {
      if (!isWorkerMessage(m)) return;
      if (m.type === 'failed') {
        failure = m.message;
        return;
      }
      s.readyAt = Date.now();
      if (!booting) log.info('worker restarted', { worker: s.slot, workerPid: pid });
      else if (slots.every((x) => x.readyAt !== null)) {
        booting = false;
        bootDone(null);
      }
    });
    w.on('exit', (code, signal) => {
      s.worker = null;
      if (stopping) return;
      if (booting) {
        booting = false;
        bootDone(new Error(failure ?? `worker ${s.slot} exited (${signal ?? `code ${code}`}) before it listened`));
        return;
      }
      const lived = s.readyAt === null ? 0 : Date.now() - s.readyAt;
      s.failures = lived >= STABLE_MS ? 1 : s.failures + 1;
      const delay = s.failures === 1 ? 0 : Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** (s.failures - 2));
      log[s.failures === 1 ? 'warn' : 'error']('worker exited; restarting it', {
        worker: s.slot,
        workerPid: pid,
        code,
        signal,
        ...(failure ? { reason: failure } : {}),
        restartInMs: delay,
        exitsInARow: s.failures,
      });
      s.restart = setTimeout(() => {
        s.restart = null;
        if (!stopping) fork(s);
      }, delay);
    });
  };

  /** SIGTERM to every worker (each drains as a lone `serve` does); resolves true if all exited 0. */
  const stopAll = () => {
    stopping = true;
    const live: Worker[] = [];
    for (const s of slots) {
      if (s.restart) clearTimeout(s.restart);
      if (s.worker) live.push(s.worker);
    }
    return new Promise<boolean>((resolve) => {
      let clean = true;
      let left = live.length;
      if (left === 0) return resolve(true);
      const limit = setTimeout(() => {
        log.error('workers did not stop in time; killing them', { workerPids: live.filter((w) => !w.isDead()).map((w) => w.process.pid) });
        for (const w of live) if (!w.isDead()) w.process.kill('SIGKILL');
      }, DRAIN_LIMIT_MS);
      for (const w of live) {
        w.once('exit', (code, signal) => {
          // Killed by the SIGTERM itself: it was still starting, with nothing in flight. Killed by a
          // SIGINT: a worker listens for it from its start to its exit (lib/stop-signal.ts), so one
          // can end it only in the instant its drain is done and it is exiting (a terminal's Ctrl-C
          // pressed again reaches every worker of the process group).
          if (code !== 0 && signal !== 'SIGTERM' && signal !== 'SIGINT') clean = false;
          if (--left > 0) return;
          clearTimeout(limit);
          resolve(clean);
        });
        w.process.kill('SIGTERM');
      }
    });
  };

  const signalled = stopSignal();
  for (const s of slots) fork(s);
  let signal: NodeJS.Signals;
  try {
    const first = await Promise.race([booted.then(() => null), signalled]);
    if (first === null) {
      out(JSON.stringify({ event: 'ready', grpc: assignment.grpcAddr, http: assignment.httpAddr, workers: slots.length }));
      log.info('gatehouse started', { grpc: assignment.grpcAddr, http: assignment.httpAddr, db: shownDatabase(config.db), workers: slots.length });
    }
    signal = first ?? (await signalled);
  } catch (e) {
    await stopAll();
    await closeDb();
    throw e;
  }
  log.info('shutting down', { signal });
  const clean = await stopAll();
  await closeDb();
  log.info('stopped');
  return clean;
}

/** The listen addresses with every port 0 replaced by a free port. */
async function choosePorts(config: Config): Promise<{ grpcAddr: string; httpAddr: string }> {
  const held: Server[] = [];
  const choose = async (addr: string): Promise<string> => {
    const { host, port } = parseAddr(addr);
    if (port !== 0) return addr;
    const server = createServer();
    held.push(server); // held until both are chosen, so the two differ
    const chosen = await new Promise<number>((resolve, reject) => {
      server.once('error', (e) => reject(new Error(`cannot listen on ${addr}: ${e.message}`)));
      server.listen(0, host, () => resolve((server.address() as { port: number }).port));
    });
    return host.includes(':') ? `[${host}]:${chosen}` : `${host}:${chosen}`;
  };
  try {
    const [grpcAddr, httpAddr] = await Promise.all([choose(config.grpcAddr), choose(config.httpAddr)]);
    return { grpcAddr, httpAddr };
  } finally {
    await Promise.all(held.map((s) => new Promise((resolve) => s.close(resolve))));
  }
}
