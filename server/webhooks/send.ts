// One webhook POST (docs/events.md): to the address the URL rules allowed (the connection goes to
// that address, not to a second resolution), no redirect followed, at most MAX_ANSWER_BYTES of the
// answer read, everything within the timeout from the moment it is sent.
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { MAX_ANSWER_BYTES } from './model.ts';

export interface SendResult {
  /** The answer's status; null when none came. */
  httpStatus: number | null;
  /** Why the attempt is not a delivery; null for a 2xx within the timeout. */
  error: string | null;
  /** From when the POST had its connection to its end, what the timeout counts (0: never sent). */
  durationMs: number;
}

/** Keep-alive agents kept, one per endpoint origin and checked address (the least recently used
 *  beyond this is closed): a delivery reuses its endpoint's connection instead of opening one per
 *  POST, which bounded throughput to a few hundred a second on loopback. One connection per
 *  endpoint: its POSTs go out one after another in the order they were sent (order of creation
 *  within a retry wave, delivery.ts). A POST's timeout counts from when it has the connection (the
 *  receiver's 10 s are its own, whatever queued before it); its wait for the connection is bounded
 *  apart (SendLimits.sendWithinMs), so a claim ends within its lease whatever the endpoint does. */
const MAX_AGENTS = 256;
const agents = new Map<string, HttpAgent>();

function agentFor(url: URL, address: { address: string; family: number }): HttpAgent {
  const key = `${url.protocol}//${url.host}|${address.address}`;
  let agent = agents.get(key);
  if (agent)
    agents.delete(key); // re-inserted below: the map's order is recency
  else {
    const opts = { keepAlive: true, maxSockets: 1, maxFreeSockets: 1, scheduling: 'fifo' as const };
    agent = url.protocol === 'https:' ? new HttpsAgent(opts) : new HttpAgent(opts);
    if (agents.size >= MAX_AGENTS) {
      const [oldest, old] = agents.entries().next().value as [string, HttpAgent];
      agents.delete(oldest);
      old.destroy();
    }
  }
  agents.set(key, agent);
  return agent;
}

export interface SendLimits {
  /** From the moment the POST has its connection (a new one: from before it connects) to the end
   *  of the answer. */
  timeoutMs: number;
  /** The longest the POST waits for the endpoint's connection, busy with the POSTs before it;
   *  past that it is not sent at all (an attempt failed, retried like any other). */
  sendWithinMs: number;
}

export function send(
  url: URL,
  address: { address: string; family: number },
  headers: Record<string, string>,
  body: string,
  limits: SendLimits,
): Promise<SendResult> {
  // The checked address, whatever the name resolves to now (no DNS rebinding between check and use).
  const lookup: LookupFunction = (_host, opts, cb) => {
    if ((opts as { all?: boolean }).all) (cb as unknown as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [address]);
    else cb(null, address.address, address.family);
  };
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    let status: number | null = null;
    let sentAt: number | null = null;
    // `reuse`: the answer was read to its end, so the connection may serve the endpoint's next POST.
    const finish = (result: Omit<SendResult, 'durationMs'>, reuse = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (!reuse) req.destroy();
      resolve({ ...result, durationMs: sentAt === null ? 0 : Math.round(performance.now() - sentAt) });
    };
    const req = request(url, {
      method: 'POST',
      lookup,
      agent: agentFor(url, address),
      headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'gatehouse-webhooks' },
    });
    // Destroyed before it has a socket, the request leaves the agent's queue unsent (a socket handed
    // to it later goes back to the agent free).
    let timer = setTimeout(
      () => finish({ httpStatus: null, error: `not sent: the endpoint's connection stayed busy for ${limits.sendWithinMs} ms` }),
      limits.sendWithinMs,
    );
    req.once('socket', () => {
      if (settled) return;
      sentAt = performance.now();
      clearTimeout(timer);
      timer = setTimeout(() => finish({ httpStatus: status, error: `no answer within ${limits.timeoutMs} ms` }), limits.timeoutMs);
    });
    req.on('error', (e) => finish({ httpStatus: status, error: e.message || 'connection failed' }));
    req.on('response', (res: IncomingMessage) => {
      status = res.statusCode ?? null;
      let read = 0;
      const outcome = (): Omit<SendResult, 'durationMs'> => {
        if (status !== null && status >= 200 && status < 300) return { httpStatus: status, error: null };
        // A redirect is an answer like any other non-2xx: never followed (the target was not checked).
        return { httpStatus: status, error: status !== null && status >= 300 && status < 400 ? `redirect (HTTP ${status}) not followed` : `HTTP ${status}` };
      };
      res.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read >= MAX_ANSWER_BYTES) finish(outcome()); // the rest of the answer is not read
      });
      res.on('end', () => finish(outcome(), true));
      res.on('error', (e) => finish({ httpStatus: status, error: e.message }));
    });
    req.end(body);
  });
}
