// The outbox events and audit records of the points use cases (docs/events.md),
// planned pure (but for fresh ids) beside their other decisions and written by the store in the
// use case's own transaction. `data` carries ids and figures only.

import { fieldChanges } from '../admin/record-changes.ts';
import type { Actor, AuditRecord } from '../audit/model.ts';
import type { GatehouseEvent } from '../events/model.ts';
import { type Emitted, newAuditRecord, newEvent } from '../events/plan.ts';
import type { StoredAlertConfig } from './alerts.ts';
import { publicLines } from './charges.ts';
import type { Movement } from './history.ts';
import type { AllocationLine, CreditKind, DefaultPointsConfig, GrantResult, QuotaWindow, RefundResult } from './model.ts';

/** Where a grant came from: the API, or the service by itself (materialise.ts sources). */
export function grantOrigin(source: string): 'api' | 'registration' | 'free_periodic' | 'subscription' {
  if (source === 'registration') return 'registration';
  if (source.startsWith('free:')) return 'free_periodic';
  if (source.startsWith('sub:')) return 'subscription';
  return 'api';
}

/** Who asked for a change through the API, and the request it came with. */
export interface Caller {
  actor: Actor;
  requestId: string | null;
}

/** The audit record of a change the caller asked for (none without a caller). */
function audited(realmId: string, caller: Caller | null, action: string, targetId: string, changes: AuditRecord['changes'], now: number): AuditRecord[] {
  return caller ? [newAuditRecord({ at: now, realmId, actor: caller.actor, action, targetId, changes, requestId: caller.requestId })] : [];
}

/** A put of the realm's default configuration: its audit record, each changed field before and after. */
export function configUpdatedEmitted(before: DefaultPointsConfig, after: DefaultPointsConfig, caller: Caller | null, now: number): Emitted {
  const changes = fieldChanges(before, after, { skip: ['realmId', 'updatedAt'] });
  return { events: [], audit: audited(after.realmId, caller, 'points_config.update', after.realmId, changes, now), jobs: [] };
}

/** A put of the realm's alert configuration: its audit record, each changed field before and after
 *  (a realm never saved before reads as all off: alerts.ts NO_ALERTS). */
export function alertsUpdatedEmitted(before: StoredAlertConfig, after: StoredAlertConfig, caller: Caller | null, now: number): Emitted {
  const changes = fieldChanges(before, after, { skip: ['realmId', 'updatedAt'] });
  return { events: [], audit: audited(after.realmId, caller, 'points_alerts.update', after.realmId, changes, now), jobs: [] };
}

/** A grant through the API: the event and its audit record. */
export function apiGrantEmitted(realmId: string, r: GrantResult, caller: Caller | null, now: number): Emitted {
  const data = { userId: r.userId, grantId: r.grantId, creditKind: r.kind, amount: r.amount, expiresAt: r.expiresAt, origin: 'api' };
  return {
    events: [newEvent('points.granted', realmId, now, data)],
    audit: audited(
      realmId,
      caller,
      'points.grant',
      r.userId,
      { [r.kind]: { before: null, after: { grantId: r.grantId, amount: r.amount, expiresAt: r.expiresAt } } },
      now,
    ),
    jobs: [],
  };
}

/** A grant the service made by itself (registration, free periodic, subscription): a balance of
 *  `amount`, or a window entitlement with `windows`. */
export function dueGrantEmitted(
  realmId: string,
  g: {
    userId: string;
    grantId: string;
    creditKind: CreditKind;
    source: string;
    amount: number | null;
    expiresAt: number | null;
    windows: readonly QuotaWindow[] | null;
  },
  now: number,
): Emitted {
  const data = {
    userId: g.userId,
    grantId: g.grantId,
    creditKind: g.creditKind,
    amount: g.amount,
    expiresAt: g.expiresAt,
    windows: g.windows,
    origin: grantOrigin(g.source),
  };
  return { events: [newEvent('points.granted', realmId, now, data)], audit: [], jobs: [] };
}

/** The event a consume emits (consumedEmitted): a store asks ahead whether an endpoint takes it. */
export const CONSUMED_EVENT = 'points.consumed';

/** The id of a consumption's event: its transaction's id under the event prefix. Derived, not
 *  drawn, so the event is a function of the movement the consumption records (consumedEvent): a
 *  store may keep it as a mark on that movement until the outbox hands it out (docs/events.md
 *  "The outbox"). Transaction ids are unique, so these are, and they sort by time as event ids do. */
export function consumedEventId(transactionId: string): string {
  return `evt_${transactionId.slice(transactionId.indexOf('_') + 1)}`;
}

/** A consume, or the settlement of a hold (what stays charged). */
export function consumedEmitted(
  realmId: string,
  c: { userId: string; transactionId: string; amount: number; allocations: AllocationLine[]; holdId: string | null },
  now: number,
): Emitted {
  const data = { userId: c.userId, transactionId: c.transactionId, amount: c.amount, allocations: publicLines(c.allocations), holdId: c.holdId };
  return { events: [{ id: consumedEventId(c.transactionId), type: CONSUMED_EVENT, realmId, createdAt: now, data }], audit: [], jobs: [] };
}

/** The event consumedEmitted plans for a consume or a settlement, from the movement it recorded
 *  (history.ts Movement, kind 'consume' or 'settle', a settlement's relatedId its hold) at
 *  `createdAt`: the same event, whichever the store kept. */
export function consumedEvent(
  realmId: string,
  userId: string,
  m: Pick<Movement, 'id' | 'kind' | 'amount' | 'lines' | 'relatedId'>,
  createdAt: number,
): GatehouseEvent {
  const c = { userId, transactionId: m.id, amount: m.amount, allocations: m.lines, holdId: m.kind === 'settle' ? m.relatedId : null };
  return consumedEmitted(realmId, c, createdAt).events[0]!;
}

/** A hold released by itself at its expiresAt (reported when it is swept, dated then). */
export function holdExpiredEmitted(realmId: string, h: { userId: string; holdId: string; amount: number; expiresAt: number }, now: number): Emitted {
  const data = { userId: h.userId, holdId: h.holdId, amount: h.amount, expiredAt: h.expiresAt };
  return { events: [newEvent('points.hold_expired', realmId, now, data)], audit: [], jobs: [] };
}

/** A refund: the event and its audit record. */
export function refundedEmitted(
  realmId: string,
  r: Pick<RefundResult, 'userId' | 'refundId' | 'transactionId' | 'amount' | 'refunded'>,
  caller: Caller | null,
  now: number,
): Emitted {
  const data = { userId: r.userId, refundId: r.refundId, transactionId: r.transactionId, amount: r.amount, refunded: r.refunded };
  return {
    events: [newEvent('points.refunded', realmId, now, data)],
    audit: audited(
      realmId,
      caller,
      'points.refund',
      r.transactionId,
      { refunded: { before: null, after: { refundId: r.refundId, amount: r.amount, refunded: r.refunded } } },
      now,
    ),
    jobs: [],
  };
}
