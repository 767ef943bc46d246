// Webhook delivery over the durable queue (docs/events.md): the outbox relay hands each new event to
// one `webhook.deliver` job per subscribing endpoint, and the job's handler makes one attempt:
// the URL rules checked again against what the host resolves to now, the POST signed per Standard
// Webhooks. A claim's attempts are recorded together, on their deliveries, their jobs and their
// endpoints (a long failing streak disables one), in one transaction. Retries, backoff and giving
// up are the queue's (jobs/retry.ts, DELIVERY_POLICY).
import { Counter, Gauge, type Registry } from 'prom-client';
import { GatehouseError } from '../errors.ts';
import type { AttemptResult, Job } from '../jobs/model.ts';
import type { ClaimContext, ClaimedResult, JobHandler, JobQueue } from '../jobs/queue.ts';
import { JOB_POLL_INTERVAL_MS } from '../jobs/queue.ts';
import type { Clock } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import { errorFields, type Logger } from '../lib/log.ts';
import { afterDeliveryAttempts, DELIVER, DELIVERY_POLICY, type DeliveryAttempt, fanOut, signatureHeader, signingSecrets } from './model.ts';
import { send } from './send.ts';
import type { ClaimedAttempt, DeliveryContext, WebhookStore } from './store.ts';
import { checkUrlSyntax, type HostResolver, resolveAllowed } from './url-rules.ts';

/** Outbox events handed out per transaction of the relay. */
const RELAY_BATCH = 100;
/** Outbox events handed out before the queue runs what they made due: a backlog is fanned out
 *  and delivered in slices, so its first deliveries do not wait for the whole of it to be fanned
 *  out, and the jobs waiting at any time stay a slice's worth. */
export const RELAY_ROUND = 10 * RELAY_BATCH;

export type AttemptOutcome = 'delivered' | 'retry' | 'failed';

export interface WebhookDeliveryDeps {
  store: WebhookStore;
  clock: Clock;
  log: Logger;
  resolve: HostResolver;
  /** --webhooks-allow-private */
  allowPrivate: boolean;
  timeoutMs: number;
  /** Told every attempt's outcome (metrics). */
  observe?: (webhookId: string, outcome: AttemptOutcome) => void;
}

export interface WebhookDelivery {
  handlers: ReadonlyMap<string, JobHandler>;
  /** Hands up to RELAY_ROUND undispatched outbox events to their deliveries, oldest first; how
   *  many events it handed. */
  relay(): Promise<number>;
}

/** An attempt's result and its record (null when none was made), and when it ended. */
interface Attempted {
  result: AttemptResult;
  attempt: DeliveryAttempt | null;
  endedAt: number;
}

export function createWebhookDelivery(deps: WebhookDeliveryDeps): WebhookDelivery {
  const { store, clock } = deps;

  // Per endpoint, the turn to send taken last: the next one waits for it to be on its way, so an
  // endpoint's POSTs leave in the order their turns were taken (a claim's jobs in order of
  // creation, after those of the claim before it) whatever order their preparations finish in.
  const lastTurn = new Map<string, Promise<void>>();

  /** The endpoint's next turn to send: `ready` once the POST of the turn before is on its way;
   *  `release()` (this one on its way, or not sent at all; more calls do nothing) lets the next go. */
  function takeTurn(webhookId: string): { ready: Promise<void>; release(): void } {
    const ready = lastTurn.get(webhookId) ?? Promise.resolve();
    let resolve!: () => void;
    const mine = new Promise<void>((r) => (resolve = r));
    lastTurn.set(webhookId, mine);
    return {
      ready,
      release() {
        resolve();
        if (lastTurn.get(webhookId) === mine) lastTurn.delete(webhookId);
      },
    };
  }

  /** A claim's deliveries: their turns taken at once, their contexts read together, one attempt
   *  each, and every outcome recorded in one transaction (WebhookStore.recordAttempts). */
  async function runClaim(jobs: Job[], claim: ClaimContext): Promise<ClaimedResult[]> {
    const turns = jobs.map((job) => takeTurn(String(job.payload.webhookId)));
    let attempts: Attempted[];
    try {
      const contexts = await store.deliveryContexts(jobs.map((j) => j.id));
      attempts = await Promise.all(jobs.map((job, i) => attempt(job, contexts.get(job.id), turns[i]!)));
    } finally {
      for (const turn of turns) turn.release();
    }
    claim.attempted();
    const recorded = attempts.map(
      (a, i): ClaimedAttempt => ({
        deliveryId: jobs[i]!.id,
        attempt: a.attempt,
        delivered: a.result.kind === 'done',
        endedAt: a.endedAt,
        decide: (job) => claim.decide(job, a.result),
      }),
    );
    const finished = await store.recordAttempts(claim.owner, recorded, afterDeliveryAttempts);
    attempts.forEach((a, i) => {
      if (!a.attempt) return;
      const outcome: AttemptOutcome = a.result.kind === 'done' ? 'delivered' : a.endedAt >= jobs[i]!.giveUpAt ? 'failed' : 'retry';
      deps.observe?.(a.attempt.webhookId, outcome);
    });
    return attempts.map((a, i) => ({ result: a.result, finished: finished[i]! }));
  }

  /** One attempt, sent in its turn. */
  async function attempt(job: Job, context: DeliveryContext | undefined, turn: { ready: Promise<void>; release(): void }): Promise<Attempted> {
    try {
      if (!context) return { result: { kind: 'fail', error: 'the endpoint or the event no longer exists' }, attempt: null, endedAt: clock.now() };
      const { endpoint, event, body } = context;
      if (!endpoint.enabled) return { result: { kind: 'fail', error: 'the endpoint is disabled' }, attempt: null, endedAt: clock.now() };
      const started = clock.now();
      const startedAt = performance.now();
      let httpStatus: number | null = null;
      let error: string | null;
      // The POST's own time, not its wait for the connection (as its timeout, send.ts); an attempt
      // the URL rules refused, the time they took.
      let durationMs: number | null = null;
      try {
        const checked = checkUrlSyntax(endpoint.url);
        const [address] = await resolveAllowed(checked, deps.resolve, deps.allowPrivate);
        const timestamp = Math.floor(started / 1000);
        const headers = {
          'webhook-id': event.id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signatureHeader(signingSecrets(endpoint, started), event.id, timestamp, body),
        };
        await turn.ready;
        // Sent while the lease leaves time for the answer and the recording after it, or not at all.
        const sendWithinMs = Math.max(0, job.leaseUntil! - clock.now() - 2 * deps.timeoutMs);
        const sending = send(checked.url, address!, headers, body, { timeoutMs: deps.timeoutMs, sendWithinMs });
        turn.release();
        const result = await sending;
        httpStatus = result.httpStatus;
        error = result.error;
        durationMs = result.durationMs;
      } catch (e) {
        // A URL rule refusing the address: the attempt failed and nothing was sent.
        error = e instanceof GatehouseError ? e.message : e instanceof Error ? e.message : String(e);
      }
      durationMs ??= Math.round(performance.now() - startedAt);
      const made: DeliveryAttempt = { id: newId('wha'), deliveryId: job.id, webhookId: endpoint.id, at: started, httpStatus, error, durationMs };
      return { result: error === null ? { kind: 'done' } : { kind: 'retry', error }, attempt: made, endedAt: clock.now() };
    } finally {
      turn.release();
    }
  }

  return {
    handlers: new Map<string, JobHandler>([[DELIVER, { policy: DELIVERY_POLICY, runClaim }]]),
    async relay() {
      let total = 0;
      if (!(await store.anyUndispatched())) return 0;
      while (total < RELAY_ROUND) {
        const now = clock.now();
        const n = await store.dispatch(now, RELAY_BATCH, (events, endpoints) => fanOut(events, endpoints, now));
        total += n;
        if (n < RELAY_BATCH) break;
      }
      return total;
    },
  };
}

/** The queue with the outbox relay run before each of its rounds: a round hands new events to
 *  their deliveries (a slice at a time, RELAY_ROUND), then runs what is due, until the outbox is
 *  empty; while a slice is delivered the next is handed out. Polls on its own timer (the queue's
 *  start() is not used, its rounds are these). */
export function withOutboxRelay(queue: JobQueue, relay: () => Promise<number>, log: Logger): JobQueue {
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  let round: Promise<number> | null = null;
  const runOnce = async () => {
    let ran = 0;
    let handed = await relay();
    for (;;) {
      const next = handed < RELAY_ROUND || stopped ? null : relay();
      next?.catch(() => {}); // reported below, once the slice under way is delivered
      try {
        ran += await queue.runOnce();
      } catch (e) {
        await next?.catch(() => {}); // the round ends with nothing of it still running
        throw e;
      }
      if (!next) return ran;
      handed = await next;
    }
  };
  return {
    ...queue,
    runOnce,
    start(intervalMs = JOB_POLL_INTERVAL_MS) {
      if (timer || stopped) return;
      timer = setInterval(() => {
        if (round || stopped) return;
        round = runOnce()
          .catch((e) => {
            log.warn('job queue round failed', errorFields(GatehouseError.from(e)));
            return 0;
          })
          .finally(() => {
            round = null;
          });
      }, intervalMs);
      timer.unref();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await round;
      await queue.stop();
    },
  };
}

/** /metrics: the outbox's depth and its oldest pending event's age (read at each scrape), and
 *  delivery attempts by outcome and endpoint. */
export function webhookMetrics(registry: Registry, store: WebhookStore, clock: Clock): (webhookId: string, outcome: AttemptOutcome) => void {
  const registers = [registry];
  // A scrape still answers while the database cannot (/readyz says so): the gauges keep their last value.
  const readOutbox = () => store.outbox().catch(() => null);
  new Gauge({
    name: 'gatehouse_outbox_depth',
    help: 'Outbox events not yet handed to their webhook deliveries.',
    registers,
    async collect() {
      const outbox = await readOutbox();
      if (outbox) this.set(outbox.depth);
    },
  });
  new Gauge({
    name: 'gatehouse_outbox_oldest_pending_age_seconds',
    help: 'Age of the oldest outbox event not yet handed to its deliveries (0 when none).',
    registers,
    async collect() {
      const outbox = await readOutbox();
      if (outbox) this.set(outbox.oldestCreatedAt === null ? 0 : Math.max(0, (clock.now() - outbox.oldestCreatedAt) / 1000));
    },
  });
  const attempts = new Counter({
    name: 'gatehouse_webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome (delivered, retry, failed: given up) and endpoint id.',
    labelNames: ['outcome', 'webhook_id'],
    registers,
  });
  return (webhookId, outcome) => attempts.inc({ outcome, webhook_id: webhookId });
}
