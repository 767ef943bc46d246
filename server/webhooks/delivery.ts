// Webhook delivery over the durable queue (docs/events.md): the outbox relay hands each new event to
// one `webhook.deliver` job per subscribing endpoint, written held by this process and run at once
// with what the hand-out read (a retry, or a job whose replica died, is claimed as any job), and
// the job's handler makes one attempt:
// the URL rules checked again against what the host resolves to now, the POST signed per Standard
// Webhooks. A claim's attempts are recorded together, on their deliveries, their jobs and their
// endpoints (a long failing streak disables one), in one transaction. Retries, backoff and giving
// up are the queue's (jobs/retry.ts, DELIVERY_POLICY).
import { Counter, Gauge, type Registry } from 'prom-client';
import { GatehouseError } from '../errors.ts';
import type { AttemptResult, Job } from '../jobs/model.ts';
import type { ClaimContext, ClaimedResult, JobHandler, JobQueue } from '../jobs/queue.ts';
import { CLAIM_BATCH, JOB_POLL_INTERVAL_MS } from '../jobs/queue.ts';
import type { Clock } from '../lib/clock.ts';
import { FlatTable } from '../lib/flat-table.ts';
import { newId } from '../lib/ids.ts';
import { errorFields, type Logger } from '../lib/log.ts';
import { afterDeliveryAttempts, DELIVER, DELIVERY_POLICY, type DeliveryAttempt, fanOut, signatureHeader, signingSecrets } from './model.ts';
import { send } from './send.ts';
import type { ClaimedAttempt, DeliveryContext, WebhookStore } from './store.ts';
import { checkUrlSyntax, type HostResolver, resolveAllowed } from './url-rules.ts';

/** Outbox events handed out per transaction of the relay. Their jobs are held from the hand-out and
 *  run together as one claim, so an endpoint gets at most one POST per event of it: no more than a
 *  claim sends one endpoint, the wait for its connection the lease is sized for (queue.ts). */
const RELAY_BATCH = CLAIM_BATCH;
/** Outbox events handed out and delivered before the queue claims what else is due (retries): a
 *  backlog does not hold them back longer than this many events take. */
export const RELAY_ROUND = 50 * RELAY_BATCH;

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

/** What one hand-out of the relay did: the events it handed, and their deliveries' jobs, held. */
export interface Relayed {
  events: number;
  jobs: Job[];
}

export interface WebhookDelivery {
  handlers: ReadonlyMap<string, JobHandler>;
  /** Hands up to RELAY_BATCH undispatched outbox events to their deliveries, oldest first, their
   *  jobs written as `hold` makes them (held by this process: run them at once; their contexts are
   *  kept for their attempts). */
  relay(hold: (job: Job, now: number) => Job): Promise<Relayed>;
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
  // FlatTables, not Maps, here and below: entries come and go with each delivery (lib/flat-table.ts).
  const lastTurn = FlatTable.byString<Promise<void>>();

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

  // The contexts the relay's hand-outs read for the jobs they held, until those jobs' attempts.
  const handed = FlatTable.byString<DeliveryContext>();
  // Whether the relay's last hand-out took a full batch (more events may wait).
  let lastFull = false;

  /** A claim's deliveries: their turns taken at once, their contexts read together (but for those
   *  the relay handed with theirs), one attempt each, and every outcome recorded in one transaction
   *  (WebhookStore.recordAttempts), decided on the jobs as the claim holds them. */
  async function runClaim(jobs: Job[], claim: ClaimContext): Promise<ClaimedResult[]> {
    const turns = jobs.map((job) => takeTurn(String(job.payload.webhookId)));
    let attempts: Attempted[];
    try {
      const contexts = new Map<string, DeliveryContext>();
      const unread: string[] = [];
      for (const job of jobs) {
        const context = handed.get(job.id);
        if (context === undefined) {
          unread.push(job.id);
          continue;
        }
        contexts.set(job.id, context);
        handed.delete(job.id);
      }
      if (unread.length > 0) for (const [id, context] of await store.deliveryContexts(unread)) contexts.set(id, context);
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
        outcome: claim.decide(jobs[i]!, a.result),
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
    async relay(hold) {
      // A plain read first unless the last hand-out was full, so an idle poll writes nothing.
      if (!lastFull && !(await store.anyUndispatched())) return { events: 0, jobs: [] };
      const now = clock.now();
      let held: Job[] = [];
      const dispatched = await store.dispatch(now, RELAY_BATCH, (events, subscribers) => {
        const planned = fanOut(events, subscribers, now);
        held = planned.jobs.map((job) => hold(job, now));
        return { deliveries: planned.deliveries, jobs: held };
      });
      lastFull = dispatched.events === RELAY_BATCH;
      if (dispatched.events === 0) return { events: 0, jobs: [] };
      for (const [id, context] of dispatched.contexts) handed.set(id, context);
      return { events: dispatched.events, jobs: held };
    },
  };
}

/** The queue with the outbox relay run in each of its rounds: a round hands new events to their
 *  deliveries a batch at a time and runs each batch's jobs at once, held, as the queue runs a claim
 *  (the next batch handed out while the one before sends), then claims what else is due (retries),
 *  and goes on so, RELAY_ROUND events at a time, until the outbox is empty. Polls on its own timer
 *  (the queue's start() is not used, its rounds are these). */
export function withOutboxRelay(queue: JobQueue, relay: WebhookDelivery['relay'], log: Logger): JobQueue {
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  let round: Promise<number> | null = null;
  const runOnce = async () => {
    let ran = 0;
    for (;;) {
      let handed = 0;
      let waiting = true;
      // Hands batches out until one is not full (the outbox was emptied) or the round's share is.
      const feed = async (): Promise<Job[]> => {
        while (waiting && !stopped && handed < RELAY_ROUND) {
          const r = await relay(queue.hold);
          handed += r.events;
          waiting = r.events === RELAY_BATCH;
          if (r.jobs.length > 0) return r.jobs;
        }
        return [];
      };
      ran += await queue.runOnce(feed);
      if (!waiting || stopped) return ran;
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
