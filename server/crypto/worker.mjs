// @ts-check
// The crypto worker thread (offload.ts starts it): runs each batch of signature jobs it is sent and
// answers with their results, in order. Plain JavaScript: see ops.mjs.
import { parentPort } from 'node:worker_threads';
import { runSignatureJob } from './ops.mjs';

/** @typedef {import('./offload.ts').WorkerBatch} WorkerBatch */
/** @typedef {import('./offload.ts').WorkerReply} WorkerReply */

/** @type {Map<number, import('node:crypto').KeyObject>} */
const keys = new Map();

// Results go back a few at a time: the event loop carries on with the first logins of a batch while
// the worker computes the rest (one reply per batch made both sides wait on each other in turn).
const REPLY_EVERY = 4;

const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);

port.on('message', (/** @type {WorkerBatch} */ batch) => {
  for (const [id, key] of batch.keys) keys.set(id, key);
  for (const id of batch.dropKeys) keys.delete(id);
  /** @type {WorkerReply} */
  let reply = { ids: [], results: [] };
  for (const j of batch.jobs) {
    if (reply.ids.length === REPLY_EVERY) {
      port.postMessage(reply);
      reply = { ids: [], results: [] };
    }
    const key = keys.get(j.key);
    reply.ids.push(j.id);
    // A missing key cannot happen (keys travel with the batch that first needs them); were it to,
    // the job answers an error and the caller runs it itself.
    if (!key) reply.results.push({ error: 'unknown key' });
    else {
      try {
        reply.results.push(runSignatureJob(j.job, key));
      } catch (e) {
        reply.results.push({ error: e instanceof Error ? e.message : String(e) });
      }
    }
  }
  port.postMessage(reply);
});
