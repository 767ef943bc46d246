// PointsService handlers: parse, validate, check the extra permission rules, call the store,
// shape the answer (docs/points.md). Thin: the rules live in the pure files of this folder, which the
// store asks inside each use case's transaction.
import { badRequest, forbidden, GatehouseError } from '../errors.ts';
import type { Clock } from '../lib/clock.ts';
import { newId, sha256Hex } from '../lib/ids.ts';
import type { ConsumeOutcome, Metrics } from '../lib/metrics.ts';
import { fromTimestamp, toTimestamp, toTimestampOrNull } from '../lib/timestamp.ts';
import { type CallContext, hasPermission } from '../rpc/context.ts';
import type { ServiceImpl } from '../rpc/types.ts';
import { type ConsumeResult, type DefaultPointsConfig, type GrantResult, PERIOD_TYPES, type PeriodType, type PointsSummary, type PoolKind } from './model.ts';
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
  };
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

export function createPointsService({ store, clock, metrics }: PointsServiceDeps): ServiceImpl<'gatehouse.v1.PointsService'> {
  const requireRealm = async (realmId: string) => assertRealm(await store.realmExists(realmId), realmId);

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
      const key = req.idempotencyKey ?? null;
      if (key !== null && (key.length === 0 || key.length > 200)) throw badRequest('idempotencyKey: 1–200 characters', { field: 'idempotencyKey' });
      const description = req.description ?? null;
      if (description !== null && description.length > 500) throw badRequest('description: at most 500 characters', { field: 'description' });
      // The request's fingerprint matters only for an idempotent replay.
      const requestHash = key === null ? '' : sha256Hex(JSON.stringify(['consume', req.userId, req.amount, description]));
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
      const key = req.idempotencyKey ?? null;
      if (key !== null && (key.length === 0 || key.length > 200)) throw badRequest('idempotencyKey: 1–200 characters', { field: 'idempotencyKey' });
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
      const p = ctx.principal;
      if (!p || p.kind !== 'user' || p.realmId !== req.realmId) throw forbidden('A user access token for this realm is required');
      return summaryView(await store.summary(req.realmId, p.userId, clock.now()));
    },
  };
}
