// The one chain of wrappers around every call, whichever transport carried it, composed here and
// nowhere else: a transport decodes the request, builds the context, calls the chain and encodes
// its answer or its error. Outermost first:
//   outcome   turns anything thrown into a GatehouseError, then tells the observers how the call
//             ended: the request log, the metrics, the profile
//   refusals  a request the transport could not decode fails here, before any credential is read
//   access    the (access) option of the RPC: public, a user's access token or an API key
//   handler
// Interceptors in the style of connect-es: each takes the next call and returns a call. Every chain
// is built when the server starts, one per method and transport (per HTTP route), so a call builds
// nothing. An interceptor that awaits costs each call a promise and an async frame, so only two do:
// the outcome wrapper and the access check of a non-public method (the invocation before the chain
// made the same two). What only watches how a call ended is an observer: a plain function the
// outcome wrapper calls, with no frame of its own.
import { GatehouseError, OutageCause } from '../errors.ts';
import { callEnded, callStarted } from '../lib/calls-in-flight.ts';
import { errorFields, type Logger } from '../lib/log.ts';
import type { Metrics } from '../lib/metrics.ts';
import { PROFILING, spanEnd, spanStart } from '../lib/profile.ts';
import { type Authenticator, accessCheck } from './access.ts';
import type { CallContext } from './context.ts';
import type { BoundMethod } from './dispatch.ts';
import { httpStatusOf } from './status.ts';

export type Req = Record<string, unknown>;
export type Res = Record<string, unknown>;

/** The context the chain receives: the handler's, and when the transport took the call. */
export interface ChainContext extends CallContext {
  /** performance.now() when the transport took the call: the request log's `ms` counts from it. */
  readonly started: number;
}

export type Call = (req: Req, ctx: ChainContext) => Promise<Res>;
export type Interceptor = (next: Call) => Call;

/** Sees every call end, synchronously: its status as the transport answers it, its milliseconds
 *  and its error (null for an answer). */
export type Observer = (ctx: ChainContext, status: number, ms: number, err: GatehouseError | null) => void;

/** What a transport says about the calls of one method (one HTTP route): given when the chain is
 *  built. */
export interface CallSite {
  /** The request log line's message. */
  transport: CallContext['transport'];
  /** The route log lines name: the HTTP route (`POST /api/…`) or the gRPC method path. */
  route: string;
  /** The status the transport answers with: an HTTP status, a gRPC code. */
  status(res: Res | null, err: GatehouseError | null): number;
  /** The status as logged, when not the number itself (gRPC: the code's name). */
  statusName?(status: number): string;
  /** The transport's own metrics of a call (HTTP by route, gRPC by method). */
  observe?(status: number, ms: number): void;
}

export interface ChainDeps {
  auth: Authenticator;
  metrics?: Metrics | null;
}

/** The chain of one method as one transport serves it. */
export function buildCall(method: BoundMethod, site: CallSite, deps: ChainDeps): Call {
  const observers: Observer[] = [requestLog(site)];
  const metrics = deps.metrics ?? null;
  if (metrics) {
    observers.push((_ctx, _status, _ms, err) => {
      if (err !== null) metrics.failure(err);
    });
  }
  const observe = site.observe?.bind(site);
  if (observe) observers.push((_ctx, status, ms) => observe(status, ms));
  if (PROFILING) {
    // Each call of the method as one span: from the moment the transport took it to its outcome
    // (decoding included, encoding the answer not).
    const span = `${site.transport} ${method.info.path}`;
    observers.push((ctx) => spanEnd(span, ctx.started));
  }
  const auth = PROFILING ? profiledAuth(deps.auth) : deps.auth;
  return compose([outcome(site, observers), refusals, accessCheck(method.info, auth)], (req, ctx) => method.handler(req, ctx));
}

/** `interceptors` around `call`, the first outermost. */
export function compose(interceptors: readonly Interceptor[], call: Call): Call {
  return interceptors.reduceRight((next, wrap) => wrap(next), call);
}

/** Normalises the error (the stores hand back ours for their database's) and runs the observers
 *  once the call has ended. */
function outcome(site: CallSite, observers: readonly Observer[]): Interceptor {
  const ended = (ctx: ChainContext, res: Res | null, err: GatehouseError | null) => {
    callEnded();
    const ms = performance.now() - ctx.started;
    const status = site.status(res, err);
    for (let i = 0; i < observers.length; i++) observers[i]!(ctx, status, ms, err);
  };
  return (next) => async (req, ctx) => {
    callStarted();
    let res: Res;
    try {
      res = (await next(req, ctx)) ?? {};
    } catch (e) {
      const err = GatehouseError.from(e);
      ended(ctx, null, err);
      throw err;
    }
    ended(ctx, res, null);
    return res;
  };
}

/** One request log line per call, after the error line of a 5xx. */
function requestLog(site: CallSite): Observer {
  const { transport, route } = site;
  const name = site.statusName?.bind(site);
  return (ctx, status, ms, err) => logRequest(ctx.log, transport, route, name ? name(status) : status, ms, err);
}

/** The request log lines of a call, or of an HTTP request that was none (an unknown route, /healthz):
 *  a 5xx's error with its cause first — not an upstream outage's, which its owner logs when it
 *  starts and ends rather than once per call — then the route, the status and the milliseconds. */
export function logRequest(log: Logger, msg: string, route: string, status: number | string, ms: number, err: GatehouseError | null): void {
  if (err !== null && httpStatusOf(err) >= 500 && !(err.cause instanceof OutageCause)) log.error('request failed', { route, ...errorFields(err) });
  log.info(msg, { route, status, ms: Math.round(ms * 10) / 10 });
}

const REFUSED = Symbol('refused request');

/** The request of a call the transport could not decode (bad bytes, bad JSON, an unsafe integer):
 *  the chain answers `err`, and logs and counts the call like any other. */
export function refusedRequest(err: GatehouseError): Req {
  return { [REFUSED]: err };
}

const refusals: Interceptor = (next) => (req, ctx) => {
  const refused = (req as Record<symbol, GatehouseError | undefined>)[REFUSED];
  return refused === undefined ? next(req, ctx) : Promise.reject(refused);
};

/** The credential checks as their own spans (GATEHOUSE_PROFILE=1 only). */
function profiledAuth(auth: Authenticator): Authenticator {
  return {
    async apiKey(secret) {
      const t = spanStart();
      try {
        return await auth.apiKey(secret);
      } finally {
        spanEnd('access.api_key', t);
      }
    },
    async userToken(realmId, token, ctx) {
      const t = spanStart();
      try {
        return await auth.userToken(realmId, token, ctx);
      } finally {
        spanEnd('access.user_token', t);
      }
    },
  };
}
