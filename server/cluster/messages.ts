// What `serve --workers N`'s primary and its workers tell each other. The primary hands each worker
// its assignment in the environment of the fork (read once at start, before anything listens); the
// worker answers over node:cluster's IPC channel.
import type { Config } from '../config.ts';

/** The environment variable carrying a worker's assignment (JSON). */
export const WORKER_ENV = 'GATEHOUSE_CLUSTER_WORKER';

export interface WorkerAssignment {
  /** 0…N−1; a restarted worker takes the slot of the one it replaces. */
  slot: number;
  /** The primary's config with the ports it chose, so every worker listens on the same ones. */
  config: Config;
}

export type WorkerMessage = { type: 'ready'; grpc: string; http: string } | { type: 'failed'; message: string };

export function isWorkerMessage(m: unknown): m is WorkerMessage {
  const t = (m as { type?: unknown } | null)?.type;
  return t === 'ready' || t === 'failed';
}
