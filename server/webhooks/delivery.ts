// Webhook delivery over the durable queue (docs/events.md): the outbox relay hands each new event to
// one `webhook.deliver` job per subscribing endpoint, and the job's handler makes one attempt:
// the URL rules checked again against what the host resolves to now, the POST signed per Standard
// Webhooks, the attempt recorded on the delivery and on its endpoint (a long failing streak
// disables it). Retries, backoff and giving up are the queue's (jobs/retry.ts, DELIVERY_POLICY).
import { Counter, Gauge, type Registry } from 'prom-client';
import { GatehouseError } from '../errors.ts';
import type { AttemptResult, Job } from '../jobs/model.ts';
import type { JobHandler, JobQueue } from '../jobs/queue.ts';
import { JOB_POLL_INTERVAL_MS } from '../jobs/queue.ts';
import type { Clock } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import { errorFields, type Logger } from '../lib/log.ts';
import { afterDeliveryAttempt, DELIVER, DELIVERY_POLICY, eventBody, fanOut, signatureHeader, signingSecrets } from './model.ts';
import { send } from './send.ts';
import type { WebhookStore } from './store.ts';
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

export function createWebhookDelivery(deps: WebhookDeliveryDeps): WebhookDelivery {
  const { store, clock } = deps;

  // Per endpoint, the send of the attempt started last: the next one waits for it to be on its way,
  // so an endpoint's POSTs leave in the order their attempts started (the queue starts a round's
  // jobs in order of creation) whatever order their reads finish in.
  const lastSend = new Map<string, Promise<void>>();

  async function attempt(job: Job): Promise<AttemptResult> {
    const webhookId = String(job.payload.webhookId);
    const before = lastSend.get(webhookId) ?? Promise.resolve();
    let sent!: () => void;
    const mine = new Promise<void>((r) => (sent = r));
    lastSend.set(webhookId, mine);
    try {
      return await attemptInTurn(job, before, sent);
    } finally {
      sent();
      if (lastSend.get(webhookId) === mine) lastSend.delete(webhookId);
    }
  }

  async function attemptInTurn(job: Job, before: Promise<void>, sent: () => void): Promise<AttemptResult> {
    const context = await store.deliveryContext(job.id);
    if (!context) return { kind: 'fail', error: 'the endpoint or the event no longer exists' };
    const { endpoint, event } = context;
    if (!endpoint.enabled) return { kind: 'fail', error: 'the endpoint is disabled' };
    const started = clock.now();
    const startedAt = performance.now();
    let httpStatus: number | null = null;
    let error: string | null;
    try {
      const checked = checkUrlSyntax(endpoint.url);
      const [address] = await resolveAllowed(checked, deps.resolve, deps.allowPrivate);
      const body = eventBody(event);
      const timestamp = Math.floor(started / 1000);
      const headers = {
        'webhook-id': event.id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatureHeader(signingSecrets(endpoint, started), event.id, timestamp, body),
      };
      await before;
      const sending = send(checked.url, address!, headers, body, deps.timeoutMs);
      sent();
      const result = await sending;
      httpStatus = result.httpStatus;
      error = result.error;
    } catch (e) {
      // A URL rule refusing the address: the attempt failed and nothing was sent.
      error = e instanceof GatehouseError ? e.message : e instanceof Error ? e.message : String(e);
    }
    const now = clock.now();
    const delivered = error === null;
    const durationMs = Math.round(performance.now() - startedAt);
    await store.recordAttempt({ id: newId('wha'), deliveryId: job.id, webhookId: endpoint.id, at: started, httpStatus, error, durationMs }, (current) =>
      afterDeliveryAttempt(current, delivered, now),
    );
    const outcome: AttemptOutcome = delivered ? 'delivered' : now >= job.giveUpAt ? 'failed' : 'retry';
    deps.observe?.(endpoint.id, outcome);
    return delivered ? { kind: 'done' } : { kind: 'retry', error: error! };
  }

  return {
    handlers: new Map([[DELIVER, { policy: DELIVERY_POLICY, run: attempt }]]),
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
 *  empty. Polls on its own timer (the queue's start() is not used, its rounds are these). */
export function withOutboxRelay(queue: JobQueue, relay: () => Promise<number>, log: Logger): JobQueue {
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  let round: Promise<number> | null = null;
  const runOnce = async () => {
    let ran = 0;
    for (;;) {
      const handed = await relay();
      ran += await queue.runOnce();
      if (handed < RELAY_ROUND || stopped) return ran;
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
