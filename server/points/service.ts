// PointsService handlers: parse, validate, check the extra permission rules, call the store,
// shape the answer (docs/points.md). Thin: the rules live in the pure files of this folder, which the
// store asks inside each use case's transaction. Holds, settlements, refunds and the history are
// answered the same way.

import type { Actor } from '../audit/model.ts';
import { badRequest, forbidden, GatehouseError } from '../errors.ts';
import type { Clock } from '../lib/clock.ts';
import { newId, sha256Hex } from '../lib/ids.ts';
import type { ConsumeOutcome, Metrics, SettleOutcome } from '../lib/metrics.ts';
import { fromTimestamp, toTimestamp, toTimestampOrNull } from '../lib/timestamp.ts';
import { type CallContext, hasPermission } from '../rpc/context.ts';
import type { ServiceImpl } from '../rpc/types.ts';
import { type StoredAlertConfig, validateAlertConfig } from './alerts.ts';
import { decodeHistoryToken, encodeHistoryToken } from './history-token.ts';
import {
  type ConsumeResult,
  type DefaultPointsConfig,
  type GrantResult,
  type HistoryEntry,
  type HistoryPage,
  HOLD_TTL,
  type HoldResult,
  PERIOD_TYPES,
  type PeriodType,
  type PointsSummary,
  type PoolKind,
  type RefundResult,
  type SettleResult,
  TRANSACTION_KINDS,
  type TransactionKind,
} from './model.ts';
import { assertRealm } from './not-found.ts';
import type { DefaultConfigPatch, PointsStore } from './store.ts';
import { validateWindows } from './windows.ts';

export interface PointsServiceDeps {
  store: PointsStore;
  clock: Clock;
  metrics?: Metrics | null;
}

export const windowListView = (w: Array<{ windowSeconds: number; limit: number }> | null) => (w === null ? null : { windows: w });

export function configView(c: DefaultPointsConfig) {
  return {
    realmId: c.realmId,
    registrationBonusPoints: c.registrationBonusPoints,
    freePeriodicPointsAmount: c.freePeriodicPointsAmount,
    freePeriodicGrantPeriodType: c.freePeriodicGrantPeriodType,
    freePeriodicValidityDays: c.freePeriodicValidityDays,
    freePeriodicQuotaWindows: windowListView(c.freePeriodicQuotaWindows),
    updatedAt: toTimestampOrNull(c.updatedAt),
  };
}

export function alertsView(c: StoredAlertConfig) {
  return { ...c, updatedAt: toTimestampOrNull(c.updatedAt) };
}

export function consumeView(r: ConsumeResult) {
  return { ...r, createdAt: toTimestamp(r.createdAt) };
}

export function grantView(r: GrantResult) {
  return { ...r, expiresAt: toTimestampOrNull(r.expiresAt), createdAt: toTimestamp(r.createdAt) };
}

export function summaryView(s: PointsSummary) {
  return {
    ...s,
    windows: s.windows.map((w) => ({ ...w, nextRecoveryAt: toTimestampOrNull(w.nextRecoveryAt), resetsAt: toTimestampOrNull(w.resetsAt) })),
    holds: s.holds.map((h) => ({ ...h, expiresAt: toTimestamp(h.expiresAt) })),
  };
}

// proto3 `optional` fields: a null of the model is an absent field (left out of the JSON).
const absentIfNull = <T>(v: T | null): T | undefined => (v === null ? undefined : v);

export function holdView(h: HoldResult) {
  return {
    ...h,
    description: absentIfNull(h.description),
    settledAmount: absentIfNull(h.settledAmount),
    createdAt: toTimestamp(h.createdAt),
    expiresAt: toTimestamp(h.expiresAt),
    closedAt: toTimestampOrNull(h.closedAt),
  };
}

export function settleView(r: SettleResult) {
  return { ...r, createdAt: toTimestamp(r.createdAt) };
}

export function refundView(r: RefundResult) {
  return { ...r, createdAt: toTimestamp(r.createdAt) };
}

export function historyEntryView(e: HistoryEntry) {
  return { ...e, description: absentIfNull(e.description), relatedId: absentIfNull(e.relatedId), createdAt: toTimestamp(e.createdAt) };
}

export function historyView(page: HistoryPage, nextPageToken: string) {
  return { transactions: page.transactions.map(historyEntryView), nextPageToken };
}

/** The fingerprint an idempotent replay is compared by; nothing to compare without a key. The
 *  operation's name is part of it, so a key used for one operation is refused for another. */
const requestHashOf = (key: string | null, request: unknown[]) => (key === null ? '' : sha256Hex(JSON.stringify(request)));

// The limits of every field (amounts, texts, idempotency keys, ttlSeconds, pageSize) are in
// points.proto, checked before a handler runs (rpc/request-check.ts); here only what they leave.
const PAGE_SIZE_DEFAULT = 50;

/** '' lists every kind. */
function kindOf(v: string): TransactionKind | null {
  if (v === '') return null;
  if (!(TRANSACTION_KINDS as readonly string[]).includes(v)) throw badRequest(`kind: must be one of ${TRANSACTION_KINDS.join(', ')}`, { field: 'kind' });
  return v as TransactionKind;
}

/** API keys need `permission` too; other callers never reach a handler that asks. */
function requirePermission(ctx: CallContext, permission: string): void {
  const p = ctx.principal;
  if (p && p.kind === 'api_key' && !hasPermission(p, permission)) throw forbidden(`API key lacks the ${permission} permission`);
}

/** The outcome of a consume the ledger refused or could not run (metrics). */
function consumeFailure(e: unknown): ConsumeOutcome {
  const code = e instanceof GatehouseError ? e.code : null;
  if (code === 'insufficient_points') return 'insufficient_points';
  if (code === 'idempotency_conflict') return 'conflict';
  return 'error';
}

function settleFailure(e: unknown): SettleOutcome {
  const code = e instanceof GatehouseError ? e.code : null;
  if (code === 'hold_expired' || code === 'hold_closed') return code;
  return consumeFailure(e);
}

/** Who made the call, for the audit record of a grant or refund (docs/events.md). */
function callerOf(ctx: CallContext) {
  const p = ctx.principal;
  const actor: Actor = p?.kind === 'api_key' ? { type: 'api_key', id: p.keyId } : { type: 'user', id: p?.userId ?? '' };
  return { actor, requestId: ctx.requestId };
}

/** The user behind a user access token for this realm (the RPC's access rule asked for one). */
function ownUserId(ctx: CallContext, realmId: string): string {
  const p = ctx.principal;
  if (!p || p.kind !== 'user' || p.realmId !== realmId) throw forbidden('A user access token for this realm is required');
  return p.userId;
}

export function createPointsService({ store, clock, metrics }: PointsServiceDeps): ServiceImpl<'gatehouse.v1.PointsService'> {
  const requireRealm = async (realmId: string) => assertRealm(await store.realmExists(realmId), realmId);

  /** A page of a user's history; the page token is bound to the realm, the user and the kind. */
  const history = async (realmId: string, userId: string, q: { pageSize?: number; pageToken: string; kind: string }) => {
    const pageSize = q.pageSize ?? PAGE_SIZE_DEFAULT;
    const kind = kindOf(q.kind);
    const listing = { realmId, userId, kind };
    const after = decodeHistoryToken(q.pageToken, listing);
    const page = await store.history({ realmId, userId, pageSize, after, kind }, clock.now());
    return historyView(page, page.next === null ? '' : encodeHistoryToken(page.next, listing));
  };

  return {
    async getDefaultConfig(req) {
      await requireRealm(req.realmId);
      return configView(await store.getDefaultConfig(req.realmId));
    },

    async putDefaultConfig(req, ctx) {
      // Every field of the default configuration is a points field.
      requirePermission(ctx, 'points.manage');
      await requireRealm(req.realmId);
      const patch: DefaultConfigPatch = {
        registrationBonusPoints: req.registrationBonusPoints,
        freePeriodicPointsAmount: req.freePeriodicPointsAmount,
        freePeriodicValidityDays: req.freePeriodicValidityDays,
      };
      if (req.freePeriodicGrantPeriodType !== undefined) {
        if (!(PERIOD_TYPES as readonly string[]).includes(req.freePeriodicGrantPeriodType)) {
          throw badRequest(`freePeriodicGrantPeriodType: must be one of ${PERIOD_TYPES.join(', ')}`, { field: 'freePeriodicGrantPeriodType' });
        }
        patch.freePeriodicGrantPeriodType = req.freePeriodicGrantPeriodType as PeriodType;
      }
      // null/absent leaves the stored windows; [] clears them; a list replaces them.
      if (req.freePeriodicQuotaWindows != null) {
        patch.freePeriodicQuotaWindows = validateWindows(req.freePeriodicQuotaWindows.windows ?? [], 'freePeriodicQuotaWindows');
      }
      return configView(await store.putDefaultConfig(req.realmId, patch, clock.now(), callerOf(ctx)));
    },

    async consume(req) {
      const key = req.idempotencyKey ?? null;
      const description = req.description ?? null;
      const requestHash = requestHashOf(key, ['consume', req.userId, req.amount, description]);
      const transactionId = newId('ptx');
      let r: ConsumeResult;
      try {
        r = await store.consume(
          { realmId: req.realmId, userId: req.userId, amount: req.amount, description, idempotencyKey: key, requestHash, transactionId },
          clock.now(),
        );
      } catch (e) {
        metrics?.consume(consumeFailure(e));
        throw e;
      }
      // A replay answers with the first call's transaction, not the id made for this one.
      metrics?.consume(r.transactionId === transactionId ? 'ok' : 'idempotent_replay');
      const view = consumeView(r);
      return view;
    },

    async grant(req, ctx) {
      if (req.kind !== 'topup_credit' && req.kind !== 'granted_credit') throw badRequest('kind: must be topup_credit or granted_credit', { field: 'kind' });
      const now = clock.now();
      const expiresAt = fromTimestamp(req.expiresAt);
      if (expiresAt !== null && expiresAt <= now) throw badRequest('expiresAt: must be in the future', { field: 'expiresAt' });
      const key = req.idempotencyKey ?? null;
      const requestHash = sha256Hex(JSON.stringify(['grant', req.userId, req.kind, req.amount, expiresAt]));
      const r = await store.grant(
        {
          realmId: req.realmId,
          userId: req.userId,
          kind: req.kind as PoolKind,
          amount: req.amount,
          expiresAt,
          idempotencyKey: key,
          requestHash,
          grantId: newId('grt'),
          caller: callerOf(ctx),
        },
        now,
      );
      return grantView(r);
    },

    async getSummary(req) {
      return summaryView(await store.summary(req.realmId, req.userId, clock.now()));
    },

    async getMySummary(req, ctx) {
      return summaryView(await store.summary(req.realmId, ownUserId(ctx, req.realmId), clock.now()));
    },

    async createHold(req) {
      const ttlSeconds = req.ttlSeconds ?? HOLD_TTL.default;
      const description = req.description ?? null;
      const key = req.idempotencyKey ?? null;
      const requestHash = requestHashOf(key, ['hold', req.userId, req.amount, ttlSeconds, description]);
      const holdId = newId('hld');
      let r: HoldResult;
      try {
        r = await store.hold(
          { realmId: req.realmId, userId: req.userId, amount: req.amount, ttlSeconds, description, idempotencyKey: key, requestHash, holdId },
          clock.now(),
        );
      } catch (e) {
        metrics?.hold(e instanceof GatehouseError && e.code === 'too_many_holds' ? 'too_many_holds' : consumeFailure(e));
        throw e;
      }
      metrics?.hold(r.holdId === holdId ? 'ok' : 'idempotent_replay');
      return holdView(r);
    },

    async settleHold(req) {
      const description = req.description ?? null;
      const key = req.idempotencyKey ?? null;
      const amount = req.amount!; // REQUIRED in points.proto: the transports refuse a request without it
      const requestHash = requestHashOf(key, ['settle', req.holdId, amount, description]);
      const transactionId = newId('ptx');
      let r: SettleResult;
      try {
        r = await store.settle({ realmId: req.realmId, holdId: req.holdId, amount, description, idempotencyKey: key, requestHash, transactionId }, clock.now());
      } catch (e) {
        metrics?.settle(settleFailure(e));
        throw e;
      }
      metrics?.settle(r.transactionId === transactionId ? 'ok' : 'idempotent_replay');
      return settleView(r);
    },

    async releaseHold(req) {
      const key = req.idempotencyKey ?? null;
      const requestHash = requestHashOf(key, ['release', req.holdId]);
      const r = await store.release({ realmId: req.realmId, holdId: req.holdId, idempotencyKey: key, requestHash, transactionId: newId('ptx') }, clock.now());
      return holdView(r);
    },

    async getHold(req) {
      return holdView(await store.getHold(req.realmId, req.holdId, clock.now()));
    },

    async refundTransaction(req, ctx) {
      const amount = req.amount ?? null;
      const reason = req.reason ?? null;
      const key = req.idempotencyKey ?? null;
      const requestHash = requestHashOf(key, ['refund', req.transactionId, amount, reason]);
      const r = await store.refund(
        {
          realmId: req.realmId,
          transactionId: req.transactionId,
          amount,
          reason,
          idempotencyKey: key,
          requestHash,
          refundId: newId('rfd'),
          caller: callerOf(ctx),
        },
        clock.now(),
      );
      return refundView(r);
    },

    async listTransactions(req) {
      return history(req.realmId, req.userId, req);
    },

    async listMyTransactions(req, ctx) {
      return history(req.realmId, ownUserId(ctx, req.realmId), req);
    },

    async getAlerts(req) {
      await requireRealm(req.realmId);
      return alertsView(await store.getAlerts(req.realmId));
    },

    async putAlerts(req, ctx) {
      const config = validateAlertConfig(req);
      await requireRealm(req.realmId);
      return alertsView(await store.putAlerts(req.realmId, config, clock.now(), callerOf(ctx)));
    },
  };
}
