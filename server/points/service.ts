// PointsService handlers: parse, validate, check the extra permission rules, call the store,
// shape the answer (docs/points.md). Thin: the rules live in the pure files of this folder, which the
// store asks inside each use case's transaction. Holds, settlements, refunds and the history are
// answered the same way.
import { badRequest, forbidden, GatehouseError } from '../errors.ts';
import type { Clock } from '../lib/clock.ts';
import { newId, sha256Hex } from '../lib/ids.ts';
import type { ConsumeOutcome, Metrics, SettleOutcome } from '../lib/metrics.ts';
import { fromTimestamp, toTimestamp, toTimestampOrNull } from '../lib/timestamp.ts';
import { type CallContext, hasPermission } from '../rpc/context.ts';
import type { ServiceImpl } from '../rpc/types.ts';
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

function nonNegative(v: number | undefined, field: string): number | undefined {
  if (v === undefined) return undefined;
  if (!Number.isSafeInteger(v) || v < 0) throw badRequest(`${field}: must be an integer ≥ 0`, { field });
  return v;
}

function positive(v: number, field: string): number {
  if (!Number.isSafeInteger(v) || v <= 0) throw badRequest(`${field}: must be a positive integer`, { field });
  return v;
}

/** An idempotency key, when given: 1–200 characters. */
function idempotencyKeyOf(key: string | undefined): string | null {
  if (key === undefined) return null;
  if (key.length === 0 || key.length > 200) throw badRequest('idempotencyKey: 1–200 characters', { field: 'idempotencyKey' });
  return key;
}

/** A free text (description, reason), when given: at most 500 characters. */
function noteOf(text: string | undefined, field: string): string | null {
  if (text === undefined) return null;
  if (text.length > 500) throw badRequest(`${field}: at most 500 characters`, { field });
  return text;
}

/** The fingerprint an idempotent replay is compared by; nothing to compare without a key. The
 *  operation's name is part of it, so a key used for one operation is refused for another. */
const requestHashOf = (key: string | null, request: unknown[]) => (key === null ? '' : sha256Hex(JSON.stringify(request)));

function ttlSecondsOf(v: number | undefined): number {
  if (v === undefined) return HOLD_TTL.default;
  if (!Number.isSafeInteger(v) || v < HOLD_TTL.min || v > HOLD_TTL.max) {
    throw badRequest(`ttlSeconds: an integer from ${HOLD_TTL.min} to ${HOLD_TTL.max}`, { field: 'ttlSeconds' });
  }
  return v;
}

const PAGE_SIZE = { min: 1, max: 200, default: 50 } as const;

function pageSizeOf(v: number | undefined): number {
  if (v === undefined) return PAGE_SIZE.default;
  if (!Number.isSafeInteger(v) || v < PAGE_SIZE.min || v > PAGE_SIZE.max) {
    throw badRequest(`pageSize: an integer from ${PAGE_SIZE.min} to ${PAGE_SIZE.max}`, { field: 'pageSize' });
  }
  return v;
}

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
    const pageSize = pageSizeOf(q.pageSize);
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
        registrationBonusPoints: nonNegative(req.registrationBonusPoints, 'registrationBonusPoints'),
        freePeriodicPointsAmount: nonNegative(req.freePeriodicPointsAmount, 'freePeriodicPointsAmount'),
        freePeriodicValidityDays: nonNegative(req.freePeriodicValidityDays, 'freePeriodicValidityDays'),
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
      return configView(await store.putDefaultConfig(req.realmId, patch, clock.now()));
    },

    async consume(req) {
      if (!req.userId) throw badRequest('userId: required', { field: 'userId' });
      positive(req.amount, 'amount');
      const key = idempotencyKeyOf(req.idempotencyKey);
      const description = noteOf(req.description, 'description');
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

    async grant(req) {
      if (req.kind !== 'topup_credit' && req.kind !== 'granted_credit') throw badRequest('kind: must be topup_credit or granted_credit', { field: 'kind' });
      positive(req.amount, 'amount');
      const now = clock.now();
      const expiresAt = fromTimestamp(req.expiresAt);
      if (expiresAt !== null && expiresAt <= now) throw badRequest('expiresAt: must be in the future', { field: 'expiresAt' });
      const key = idempotencyKeyOf(req.idempotencyKey);
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
      if (!req.userId) throw badRequest('userId: required', { field: 'userId' });
      positive(req.amount, 'amount');
      const ttlSeconds = ttlSecondsOf(req.ttlSeconds);
      const description = noteOf(req.description, 'description');
      const key = idempotencyKeyOf(req.idempotencyKey);
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
      if (req.amount === undefined) throw badRequest('amount: required', { field: 'amount' });
      nonNegative(req.amount, 'amount');
      const description = noteOf(req.description, 'description');
      const key = idempotencyKeyOf(req.idempotencyKey);
      const requestHash = requestHashOf(key, ['settle', req.holdId, req.amount, description]);
      const transactionId = newId('ptx');
      let r: SettleResult;
      try {
        r = await store.settle(
          { realmId: req.realmId, holdId: req.holdId, amount: req.amount, description, idempotencyKey: key, requestHash, transactionId },
          clock.now(),
        );
      } catch (e) {
        metrics?.settle(settleFailure(e));
        throw e;
      }
      metrics?.settle(r.transactionId === transactionId ? 'ok' : 'idempotent_replay');
      return settleView(r);
    },

    async releaseHold(req) {
      const key = idempotencyKeyOf(req.idempotencyKey);
      const requestHash = requestHashOf(key, ['release', req.holdId]);
      const r = await store.release({ realmId: req.realmId, holdId: req.holdId, idempotencyKey: key, requestHash, transactionId: newId('ptx') }, clock.now());
      return holdView(r);
    },

    async getHold(req) {
      return holdView(await store.getHold(req.realmId, req.holdId, clock.now()));
    },

    async refundTransaction(req) {
      const amount = req.amount === undefined ? null : positive(req.amount, 'amount');
      const reason = noteOf(req.reason, 'reason');
      const key = idempotencyKeyOf(req.idempotencyKey);
      const requestHash = requestHashOf(key, ['refund', req.transactionId, amount, reason]);
      const r = await store.refund(
        { realmId: req.realmId, transactionId: req.transactionId, amount, reason, idempotencyKey: key, requestHash, refundId: newId('rfd') },
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
  };
}
