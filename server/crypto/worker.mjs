// @ts-check
// The crypto worker thread (offload.ts starts it): runs each batch of signature jobs it is sent and
// answers with their results, in order, and the server's blocking tasks (lib/thread-tasks.ts) in
// the order they come with the batches. Plain JavaScript: see ops.mjs.
import { parentPort } from 'node:worker_threads';
import { JOB_FIELDS, runSignatureJob } from './ops.mjs';

/** @typedef {import('./offload.ts').WorkerBatch} WorkerBatch */
/** @typedef {import('./offload.ts').WorkerReply} WorkerReply */
/** @typedef {import('./offload.ts').TaskMessage} TaskMessage */
/** @typedef {import('./offload.ts').TaskReply} TaskReply */

/** @type {Map<number, import('node:crypto').KeyObject>} */
const keys = new Map();

// Results go back a few at a time: the event loop carries on with the first logins of a batch while
// the worker computes the rest (one reply per batch made both sides wait on each other in turn).
const REPLY_EVERY = 4;

const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);

port.on('message', (/** @type {WorkerBatch | TaskMessage} */ m) => {
  if ('task' in m) runTask(m);
  else runBatch(m);
});

/** @param {TaskMessage} m */
function runTask(m) {
  // Imported on its first task (the module cache keeps it for the next ones). The server sends no
  // batch while a task is out (offload.ts), so nothing waits behind it.
  const failed = (/** @type {unknown} */ e) => port.postMessage(/** @type {TaskReply} */ ({ task: m.task, error: messageOf(e) }));
  import(m.module).then((mod) => {
    try {
      // A value that cannot be cloned into the answer fails the task, not the thread.
      port.postMessage(/** @type {TaskReply} */ ({ task: m.task, value: mod[m.fn](m.arg) }));
    } catch (e) {
      failed(e);
    }
  }, failed);
}

/** @param {WorkerBatch} batch */
function runBatch(batch) {
  for (const [id, key] of batch.keys) keys.set(id, key);
  for (const id of batch.dropKeys) keys.delete(id);
  const jobs = batch.jobs;
  /** @type {WorkerReply} */
  let reply = { results: [] };
  for (let i = 0; i < jobs.length; i += JOB_FIELDS) {
    if (reply.results.length === REPLY_EVERY * 2) {
      port.postMessage(reply);
      reply = { results: [] };
    }
    const id = /** @type {number} */ (jobs[i]);
    const key = keys.get(/** @type {number} */ (jobs[i + 1]));
    const alg = /** @type {import('./ops.mjs').JwsAlgorithm} */ (jobs[i + 2]);
    const data = /** @type {string} */ (jobs[i + 3]);
    const signature = jobs[i + 4];
    /** @type {import('./ops.mjs').SignatureJob} */
    const job = typeof signature === 'string' ? { op: 'verify', alg, data, signature } : { op: 'sign', alg, data };
    reply.results.push(id);
    // A missing key cannot happen (keys travel with the batch that first needs them); were it to,
    // the job answers an error and the caller runs it itself.
    if (!key) reply.results.push({ error: 'unknown key' });
    else {
      try {
        reply.results.push(runSignatureJob(job, key));
      } catch (e) {
        reply.results.push({ error: messageOf(e) });
      }
    }
  }
  port.postMessage(reply);
}

/** What a failure says, sent back as text (an Error does not keep its class across threads). */
function messageOf(/** @type {unknown} */ e) {
  return e instanceof Error ? e.message : String(e);
}
