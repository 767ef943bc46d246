// One webhook POST (docs/events.md): to the address the URL rules allowed (the connection goes to
// that address, not to a second resolution), no redirect followed, at most MAX_ANSWER_BYTES of the
// answer read, everything within the timeout from its turn at the receiver.
import { type ExchangeLimits, Http1Origin } from './http1.ts';
import { MAX_ANSWER_BYTES } from './model.ts';

export interface SendResult {
  /** The answer's status; null when none came. */
  httpStatus: number | null;
  /** Why the attempt is not a delivery; null for a 2xx within the timeout. */
  error: string | null;
  /** From the POST's turn at the receiver (sent, and the answer before it ended) to its end, what
   *  the timeout counts (0: its turn never came). */
  durationMs: number;
}

/** Connections kept, one per endpoint origin and checked address (the least recently used beyond
 *  this is closed): a delivery reuses its endpoint's connection instead of opening one per POST,
 *  which bounded throughput to a few hundred a second on loopback. One connection per endpoint: its
 *  POSTs go out in the order they were sent (order of creation within a retry wave, delivery.ts),
 *  pipelined once the receiver showed it keeps the connection open (http1.ts). A POST's timeout
 *  counts from its turn at the receiver (the receiver's 10 s are its own, whatever queued before
 *  it); its wait for that turn is bounded apart (SendLimits.sendWithinMs), so a claim ends within
 *  its lease whatever the endpoint does. */
const MAX_ORIGINS = 256;
const origins = new Map<string, Http1Origin>();

function originFor(url: URL, address: { address: string; family: number }): Http1Origin {
  const key = `${url.protocol}//${url.host}|${address.address}`;
  let origin = origins.get(key);
  if (origin)
    origins.delete(key); // re-inserted below: the map's order is recency
  else {
    origin = new Http1Origin(url, address, MAX_ANSWER_BYTES);
    if (origins.size >= MAX_ORIGINS) {
      const [oldest, old] = origins.entries().next().value as [string, Http1Origin];
      origins.delete(oldest);
      old.close();
    }
  }
  origins.set(key, origin);
  return origin;
}

export type SendLimits = ExchangeLimits;

export async function send(
  url: URL,
  address: { address: string; family: number },
  headers: Record<string, string>,
  body: string,
  limits: SendLimits,
): Promise<SendResult> {
  const all = { ...headers, 'content-type': 'application/json', 'user-agent': 'gatehouse-webhooks' };
  const { status, error, durationMs } = await originFor(url, address).post(url.pathname + url.search, all, body, limits);
  if (error !== null) return { httpStatus: status, error, durationMs };
  if (status! >= 200 && status! < 300) return { httpStatus: status, error: null, durationMs };
  // A redirect is an answer like any other non-2xx: never followed (the target was not checked).
  return { httpStatus: status, error: status! >= 300 && status! < 400 ? `redirect (HTTP ${status}) not followed` : `HTTP ${status}`, durationMs };
}
