// One worker of `serve --workers N` (primary.ts forks it): the same server as a lone `serve`, on the
// ports the primary chose, telling the primary when it listens instead of printing the ready line.
import cluster from 'node:cluster';
import { createLogger, type Logger } from '../lib/log.ts';
import { type RunningServer, startServer } from '../main.ts';
import { WORKER_ENV, type WorkerAssignment, type WorkerMessage } from './messages.ts';

/** This process's assignment when it is a worker forked by primary.ts, else null. */
export function workerAssignment(env: NodeJS.ProcessEnv = process.env): WorkerAssignment | null {
  const raw = env[WORKER_ENV];
  if (!cluster.isWorker || raw === undefined) return null;
  return JSON.parse(raw) as WorkerAssignment;
}

export interface StartedWorker {
  running: RunningServer;
  log: Logger;
}

/** Starts the worker's server and tells the primary it listens. On failure it tells the primary
 *  why and exits 1 (the primary reports it, once for the cluster). */
export async function startWorker({ slot, config }: WorkerAssignment): Promise<StartedWorker> {
  // Every line says which process wrote it: the workers share the primary's stderr.
  const log = createLogger({ level: config.logLevel, base: { worker: slot, pid: process.pid } });
  let running: RunningServer;
  try {
    // The primary runs the WAL checkpoints of the database file. The periodic sweep of
    // expired login state runs in every worker: each batch is its own short transaction deleting
    // rows no one can use any more, so passes that overlap only find fewer rows, and the sweep goes
    // on while any worker lives.
    running = await startServer(config, { log, checkpointer: false });
  } catch (e) {
    await send({ type: 'failed', message: (e as Error).message });
    process.exit(1);
  }
  await send({ type: 'ready', grpc: running.grpcAddr, http: running.httpAddr });
  const stop = async (graceMs?: number) => {
    await running.stop(graceMs);
    // The IPC channel would keep the process alive; without it, it exits as a lone `serve` does.
    cluster.worker?.disconnect();
  };
  return { running: { ...running, stop }, log };
}

function send(m: WorkerMessage): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send) return resolve();
    process.send(m, undefined, {}, () => resolve());
  });
}
