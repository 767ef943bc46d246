// A login's two signature operations — checking the provider's signature (the algorithm its entry
// in auth/providers/ accepts: RS256, ES256 or EdDSA) and signing gatehouse's access token — run on
// one worker thread beside the event loop, which then spends its time on HTTP, SQLite and the rest
// of the login (~45 µs of a ~170 µs login left the event loop).
//
// Why not node:crypto's callback form: it puts every call on libuv's thread pool, and each job
// wakes a sleeping pool thread — a futex wake, an inter-processor interrupt on a virtual machine —
// which cost the event loop about as much as the signature it handed off (measured on the 2-vCPU
// bench machine). Here the jobs of one event-loop turn travel as one message, however many logins
// it carries (one wake per batch), and the results come back a few at a time (worker.mjs).
//
// Nothing depends on the worker being there: if it cannot start or dies, the jobs it held and every
// job until a new one is up run on the event loop with the same code (ops.mjs), and give the same
// answers; a fresh worker is tried after RETRY_MS.
//
// The thread also runs the server's blocking tasks (lib/thread-tasks.ts: SQLite's WAL checkpoints),
// one thread where each would have cost an isolate of its own. A task holds the thread for
// milliseconds, so no signature waits behind one: from the moment a task is sent until it has
// answered, signatures are computed on the event loop; those sent before it are ahead of it in the
// thread's queue.

import type { KeyObject } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { FlatTable } from '../lib/flat-table.ts';
import { PROFILING, spanEnd, spanStart } from '../lib/profile.ts';
import { threadExecArgv } from '../lib/thread-argv.ts';
import type { ThreadTasks } from '../lib/thread-tasks.ts';
import { runSignatureJob } from './ops.mjs';

type SignatureJob = import('./ops.mjs').SignatureJob;
type SignatureResult = import('./ops.mjs').SignatureResult;
/** A JWS `alg` the signature service computes (crypto/ops.mjs ALGORITHMS). */
export type JwsAlgorithm = import('./ops.mjs').JwsAlgorithm;

export interface WorkerBatch {
  /** Keys the worker has not been sent yet, by id (a KeyObject is cloned to the worker once). */
  keys: [number, KeyObject][];
  /** Keys garbage-collected on this side since the last batch. */
  dropKeys: number[];
  /** The jobs flat, JOB_FIELDS (ops.mjs) entries each: id, key id, alg, data, and the signature to verify
   *  (null: a signing job). Flat, because a message's cost grows with the objects it clones: an
   *  object per job cost each side ~1 µs more a job. */
  jobs: (number | string | null)[];
}

export interface WorkerReply {
  /** Flat too: a job's id, then its result. */
  results: (number | SignatureResult | { error: string })[];
}

/** A task for the thread (ThreadTasks.runTask), and its answer. */
export interface TaskMessage {
  task: number;
  module: string;
  fn: string;
  arg: unknown;
}
export type TaskReply = { task: number; value: unknown } | { task: number; error: string };

interface Pending {
  job: SignatureJob;
  key: KeyObject;
  resolve(r: SignatureResult): void;
  reject(e: unknown): void;
}

const RETRY_MS = 5_000;
const WORKER_HEAP = { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 64 };

/** What the auth concern asks of the signature service (one per server, made by the composition root). */
export interface SignatureService {
  verify(alg: JwsAlgorithm, data: string, signature: string, key: KeyObject): Promise<boolean>;
  sign(alg: JwsAlgorithm, data: string, key: KeyObject): Promise<string>;
}

export interface OffloadOptions {
  /** Whether other calls compete for the event loop: a signature goes to the thread only then, and
   *  is otherwise computed at once by its caller. With nothing else to serve, the thread's hop only
   *  adds its latency and its wake-ups. Measured on the bench machine, logins one at a time: 606 →
   *  453 µs of server CPU each and 32% more a second when computed here; with 2, 4 or 16 in flight
   *  they go to the thread as before. Default: always to the thread. */
  busy?: () => boolean;
}

export class CryptoOffload implements SignatureService, ThreadTasks {
  private readonly busy: () => boolean;
  private worker: Worker | null = null;
  private workerKeys = new Set<number>();
  private failedAt = -Infinity;
  private readonly keyIds = new WeakMap<KeyObject, number>();
  private nextKeyId = 1;
  private nextJobId = 1;
  /** Ids of jobs not yet sent (their job and key are in inFlight). */
  private queue: number[] = [];
  private scheduled = false;
  // Not a Map: one entry a signature, each holding its caller's promise (lib/flat-table.ts).
  private readonly inFlight = FlatTable.byNumber<Pending>();
  private dropped: number[] = [];
  private readonly collected = new FinalizationRegistry<number>((id) => this.dropped.push(id));
  private nextTaskId = 1;
  /** Tasks sent and not yet answered: while there is one, signatures run here. */
  private readonly tasks = FlatTable.byNumber<{ resolve(v: unknown): void; reject(e: unknown): void }>();

  constructor(opts: OffloadOptions = {}) {
    this.busy = opts.busy ?? (() => true);
  }

  /** Starts the worker now rather than on the first job (a server warms it at start). */
  warm(): void {
    this.ensureWorker();
  }

  /** Whether `signature` (base64url) is a valid `alg` signature of `data` by `key`; false too when
   *  the key cannot be used with `alg`. */
  verify(alg: JwsAlgorithm, data: string, signature: string, key: KeyObject): Promise<boolean> {
    return timed('crypto.verify', this.submit({ op: 'verify', alg, data, signature }, key)) as Promise<boolean>;
  }

  /** The base64url `alg` signature of `data`; rejects when the key cannot sign `alg`. */
  sign(alg: JwsAlgorithm, data: string, key: KeyObject): Promise<string> {
    return timed('crypto.sign', this.submit({ op: 'sign', alg, data }, key)) as Promise<string>;
  }

  /** Stops the worker; jobs it held run on the event loop. The next job starts a new one. */
  async stopWorker(): Promise<void> {
    const w = this.worker;
    if (!w) return;
    this.lost(w);
    this.failedAt = -Infinity; // stopped on purpose: not a failure to wait out
    w.ref(); // held until it has exited, so the caller's await completes
    await w.terminate();
  }

  runTask(module: URL, fn: string, arg: unknown): Promise<unknown> | null {
    const w = this.ensureWorker();
    if (!w) return null;
    return new Promise((resolve, reject) => {
      const task = this.nextTaskId++;
      this.tasks.set(task, { resolve, reject });
      w.ref();
      const m: TaskMessage = { task, module: module.href, fn, arg };
      w.postMessage(m);
    });
  }

  private submit(job: SignatureJob, key: KeyObject): Promise<SignatureResult> {
    if (!this.busy()) return new Promise((resolve, reject) => settleHere({ job, key, resolve, reject }));
    return new Promise((resolve, reject) => {
      const id = this.nextJobId++;
      this.inFlight.set(id, { job, key, resolve, reject });
      this.queue.push(id);
      if (!this.scheduled) {
        this.scheduled = true;
        // After this turn's I/O callbacks: every login that reached its signature in this turn
        // rides in the same message.
        setImmediate(() => this.send());
      }
    });
  }

  private send(): void {
    this.scheduled = false;
    const queue = this.queue;
    this.queue = [];
    const w = this.ensureWorker();
    // No thread, or one busy with a task: this turn's signatures are computed here.
    if (!w || this.tasks.size > 0) {
      for (const id of queue) this.runHere(id);
      return;
    }
    const batch: WorkerBatch = { keys: [], dropKeys: this.dropped, jobs: [] };
    this.dropped = [];
    for (const id of batch.dropKeys) this.workerKeys.delete(id);
    for (const id of queue) {
      const p = this.inFlight.get(id)!;
      const keyId = this.keyId(p.key);
      if (!this.workerKeys.has(keyId)) {
        this.workerKeys.add(keyId);
        batch.keys.push([keyId, p.key]);
      }
      const j = p.job;
      batch.jobs.push(id, keyId, j.alg, j.data, j.op === 'verify' ? j.signature : null);
    }
    w.ref();
    w.postMessage(batch);
  }

  private keyId(key: KeyObject): number {
    let id = this.keyIds.get(key);
    if (id === undefined) {
      id = this.nextKeyId++;
      this.keyIds.set(key, id);
      this.collected.register(key, id);
    }
    return id;
  }

  private ensureWorker(): Worker | null {
    if (this.worker) return this.worker;
    if (performance.now() - this.failedAt < RETRY_MS) return null;
    let w: Worker;
    try {
      // It holds a few keys and one batch at a time: a small heap, not the main thread's defaults
      // (running out would end the worker, and its jobs would run here). Plain JavaScript: no tsx
      // in the thread (lib/thread-argv.ts).
      w = new Worker(new URL('./worker.mjs', import.meta.url), { resourceLimits: WORKER_HEAP, execArgv: threadExecArgv() });
    } catch {
      this.failedAt = performance.now();
      return null;
    }
    w.on('message', (reply: WorkerReply | TaskReply) => {
      if (this.worker !== w) return; // a replaced worker: what it held has run here already
      if ('task' in reply) {
        const t = this.tasks.get(reply.task);
        this.tasks.delete(reply.task);
        if ('error' in reply) t?.reject(new Error(reply.error));
        else t?.resolve(reply.value);
      } else {
        const results = reply.results;
        for (let i = 0; i < results.length; i += 2) {
          const id = results[i] as number;
          const r = results[i + 1] as SignatureResult | { error: string };
          if (typeof r === 'object') this.runHere(id);
          else this.take(id)?.resolve(r);
        }
      }
      if (this.inFlight.size === 0 && this.tasks.size === 0) w.unref();
    });
    w.on('error', () => this.lost(w));
    w.on('exit', () => this.lost(w));
    // Held (ref) only while it has jobs: an idle worker never keeps a process alive. After the
    // listeners: adding one refs the worker again.
    w.unref();
    this.worker = w;
    this.workerKeys = new Set();
    return w;
  }

  /** The worker is gone: what it held runs here, and none is tried again for a while. */
  private lost(w: Worker): void {
    if (this.worker !== w) return;
    this.worker = null;
    this.failedAt = performance.now();
    const queued = new Set(this.queue);
    for (const id of this.inFlight.keys()) if (!queued.has(id)) this.runHere(id);
    const stopped = new Error('the signature thread stopped');
    const tasks = [...this.tasks.values()];
    this.tasks.clear();
    for (const t of tasks) t.reject(stopped);
  }

  private runHere(id: number): void {
    const p = this.take(id);
    if (p) settleHere(p);
  }

  /** The pending job `id`, removed from inFlight (undefined if it was settled already). */
  private take(id: number): Pending | undefined {
    const p = this.inFlight.get(id);
    this.inFlight.delete(id);
    return p;
  }
}

/** Computes the job on this thread and settles its promise with the answer. */
function settleHere(p: Pending): void {
  try {
    p.resolve(runSignatureJob(p.job, p.key));
  } catch (e) {
    p.reject(e);
  }
}

/** With GATEHOUSE_PROFILE=1, a job's time from submission to its answer (queue, thread hop and the
 *  signature work itself) as a span; otherwise the promise as it is. */
function timed<T>(name: string, p: Promise<T>): Promise<T> {
  if (!PROFILING) return p;
  const t = spanStart();
  return p.finally(() => spanEnd(name, t));
}
