// Operator metrics in the Prometheus text format (served at GET /metrics). One registry per server,
// made by the composition root, so two servers in one process never share a counter. Names follow
// the Prometheus conventions: a `gatehouse_` prefix, `_total` on counters, base units (seconds).
//
// Label values come only from bounded sets: route templates (never a raw path), gRPC method paths
// of proto/, status codes, and the fixed outcome and category names of the code. The hot paths
// (every request, consume, login) reach their series through children resolved once and kept in
// nested maps, so a call does a few map look-ups and no string building.

import { status as GrpcStatus } from '@grpc/grpc-js';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

export type LoginFlow = 'native' | 'apple_web';
export type ConsumeOutcome = 'ok' | 'insufficient_points' | 'idempotent_replay' | 'conflict' | 'error';
const CONSUME_OUTCOMES: ConsumeOutcome[] = ['ok', 'insufficient_points', 'idempotent_replay', 'conflict', 'error'];
/** A hold opens like a consume, unless its user has too many open already (holds.ts); a settle may
 *  also meet a hold already expired or closed. */
export type HoldOutcome = ConsumeOutcome | 'too_many_holds';
const HOLD_OUTCOMES: HoldOutcome[] = [...CONSUME_OUTCOMES, 'too_many_holds'];
export type SettleOutcome = ConsumeOutcome | 'hold_expired' | 'hold_closed';
const SETTLE_OUTCOMES: SettleOutcome[] = [...CONSUME_OUTCOMES, 'hold_expired', 'hold_closed'];
const DB_ERROR_KINDS = ['busy', 'unavailable', 'other'] as const;
export type DbErrorKind = (typeof DB_ERROR_KINDS)[number];
/** The store's reading of an error's cause: which kind of database failure it is, or null. */
export type DbErrorClassifier = (err: unknown) => DbErrorKind | null;

// Request latency: from a cached consume (~0.1 ms) to a login waiting for a JWKS fetch (seconds).
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
// Units per group-commit transaction (at most eight: store/sqlite/group-commit.ts).
const BATCH_BUCKETS = [1, 2, 3, 4, 5, 6, 7, 8];

/** Records a finished call; `ms` is the handler's own performance.now() difference. */
export type CallObserver = (code: number, ms: number) => void;

export interface Metrics {
  readonly registry: Registry;
  /** An HTTP request: its route template ('unmatched' when none), method and status. */
  http(route: string, method: string, status: number, ms: number): void;
  /** The observer of one gRPC method, resolved once at boot; `code` is the gRPC status. */
  grpcMethod(path: string): CallObserver;
  /** A failed request: counted as a database error when a database error caused it. */
  failure(err: { cause?: unknown }): void;
  /** A login's outcome: `success` or the refusal category the login logs. */
  login(flow: LoginFlow, provider: string, outcome: string): void;
  consume(outcome: ConsumeOutcome): void;
  /** A hold's opening (docs/points.md: holds). */
  hold(outcome: HoldOutcome): void;
  settle(outcome: SettleOutcome): void;
  /** One JWKS fetch and the cache state after it. */
  jwksFetch(provider: string, ok: boolean, keysCached: number, lastSuccessMs: number | null): void;
  /** Units committed together by one group-commit transaction. */
  writeBatch(size: number): void;
}

/** A map of children filled on first use: one look-up per label after that. */
function children<C>(make: (value: string) => C): (value: string) => C {
  const m = new Map<string, C>();
  return (value) => {
    let c = m.get(value);
    if (c === undefined) m.set(value, (c = make(value)));
    return c;
  };
}

export function createMetrics(dbErrorKind: DbErrorClassifier, registry = new Registry()): Metrics {
  const registers = [registry];
  collectDefaultMetrics({ register: registry });

  const httpRequests = new Counter({
    name: 'gatehouse_http_requests_total',
    help: 'HTTP requests by route template, method and status.',
    labelNames: ['route', 'method', 'status'],
    registers,
  });
  const httpDuration = new Histogram({
    name: 'gatehouse_http_request_duration_seconds',
    help: 'HTTP request latency by route template and method.',
    labelNames: ['route', 'method'],
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const grpcRequests = new Counter({
    name: 'gatehouse_grpc_requests_total',
    help: 'gRPC calls by method and status code.',
    labelNames: ['method', 'code'],
    registers,
  });
  const grpcDuration = new Histogram({
    name: 'gatehouse_grpc_request_duration_seconds',
    help: 'gRPC call latency by method.',
    labelNames: ['method'],
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const logins = new Counter({
    name: 'gatehouse_logins_total',
    help: 'Logins by flow, provider and outcome (success or the refusal category).',
    labelNames: ['flow', 'provider', 'outcome'],
    registers,
  });
  const consumes = new Counter({ name: 'gatehouse_points_consumes_total', help: 'Points consume calls by outcome.', labelNames: ['outcome'], registers });
  const holds = new Counter({ name: 'gatehouse_points_holds_total', help: 'Points hold calls by outcome.', labelNames: ['outcome'], registers });
  const settles = new Counter({ name: 'gatehouse_points_settles_total', help: 'Points hold settlements by outcome.', labelNames: ['outcome'], registers });
  const jwksFetches = new Counter({
    name: 'gatehouse_jwks_fetches_total',
    help: 'JWKS fetches by identity provider and result (ok or error).',
    labelNames: ['provider', 'result'],
    registers,
  });
  const jwksKeys = new Gauge({ name: 'gatehouse_jwks_keys', help: 'Keys held in the JWKS cache by identity provider.', labelNames: ['provider'], registers });
  const jwksLastSuccess = new Gauge({
    name: 'gatehouse_jwks_last_success_timestamp_seconds',
    help: 'Time of the last successful JWKS fetch by identity provider (Unix seconds).',
    labelNames: ['provider'],
    registers,
  });
  const dbErrors = new Counter({
    name: 'gatehouse_db_errors_total',
    help: 'Database errors met by requests and readiness probes, by kind (busy, unavailable, other).',
    labelNames: ['kind'],
    registers,
  });
  const writeBatch = new Histogram({
    name: 'gatehouse_db_write_batch_size',
    help: 'Write units committed together in one group-commit transaction.',
    buckets: BATCH_BUCKETS,
    registers,
  });

  // Every fixed label set starts at zero, so a dashboard sees the series before the first event.
  const consumeChild = Object.fromEntries(CONSUME_OUTCOMES.map((o) => [o, consumes.labels(o)])) as Record<ConsumeOutcome, Counter.Internal>;
  for (const c of Object.values(consumeChild)) c.inc(0);
  const holdChild = Object.fromEntries(HOLD_OUTCOMES.map((o) => [o, holds.labels(o)])) as Record<HoldOutcome, Counter.Internal>;
  for (const c of Object.values(holdChild)) c.inc(0);
  const settleChild = Object.fromEntries(SETTLE_OUTCOMES.map((o) => [o, settles.labels(o)])) as Record<SettleOutcome, Counter.Internal>;
  for (const c of Object.values(settleChild)) c.inc(0);
  const dbErrorChild = Object.fromEntries(DB_ERROR_KINDS.map((k) => [k, dbErrors.labels(k)])) as Record<DbErrorKind, Counter.Internal>;
  for (const c of Object.values(dbErrorChild)) c.inc(0);

  // route → method → { latency, status → counter }
  const httpRoute = children((route) =>
    children((method) => ({
      latency: httpDuration.labels(route, method),
      status: new Map<number, Counter.Internal>(),
    })),
  );
  const loginChild = children((flow) => children((provider) => children((outcome) => logins.labels(flow, provider, outcome))));

  return {
    registry,

    http(route, method, status, ms) {
      const r = httpRoute(route)(method);
      let c = r.status.get(status);
      if (c === undefined) r.status.set(status, (c = httpRequests.labels(route, method, String(status))));
      c.inc();
      r.latency.observe(ms / 1000);
    },

    grpcMethod(path) {
      const latency = grpcDuration.labels(path);
      const byCode: Counter.Internal[] = [];
      return (code, ms) => {
        (byCode[code] ??= grpcRequests.labels(path, GrpcStatus[code] ?? String(code))).inc();
        latency.observe(ms / 1000);
      };
    },

    failure(err) {
      const kind = dbErrorKind(err.cause);
      if (kind !== null) dbErrorChild[kind].inc();
    },

    login(flow, provider, outcome) {
      loginChild(flow)(provider)(outcome).inc();
    },

    consume(outcome) {
      consumeChild[outcome].inc();
    },

    hold(outcome) {
      holdChild[outcome].inc();
    },

    settle(outcome) {
      settleChild[outcome].inc();
    },

    jwksFetch(provider, ok, keysCached, lastSuccessMs) {
      jwksFetches.labels(provider, ok ? 'ok' : 'error').inc();
      jwksKeys.labels(provider).set(keysCached);
      if (lastSuccessMs !== null) jwksLastSuccess.labels(provider).set(lastSuccessMs / 1000);
    },

    writeBatch(size) {
      writeBatch.observe(size);
    },
  };
}
