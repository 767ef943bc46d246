// The event and audit record of a subscription an operator activates or cancels (docs/events.md),
// pure but for fresh ids: the billing store writes them in the change's transaction.
import { fieldChanges } from '../admin/record-changes.ts';
import type { Actor, AuditRecord, FieldChange } from '../audit/model.ts';
import { type Emitted, newAuditRecord, newEvent } from '../events/plan.ts';
import type { EntitlementMapping, Subscription } from './model.ts';

/** `subscription.activated` or `subscription.cancelled` with ids only, and the caller's audit
 *  record of the change (`subscription.create`, `subscription.cancel`). */
export function subscriptionChanged(sub: Subscription, by: { actor: Actor; requestId: string | null }, now: number): Emitted {
  const cancelled = sub.status === 'canceled';
  const data = { userId: sub.userId, subscriptionId: sub.id, mappingId: sub.mappingId, externalSubscriptionId: sub.externalSubscriptionId };
  return {
    events: [newEvent(cancelled ? 'subscription.cancelled' : 'subscription.activated', sub.realmId, now, data)],
    audit: [
      newAuditRecord({
        at: now,
        realmId: sub.realmId,
        actor: by.actor,
        action: cancelled ? 'subscription.cancel' : 'subscription.create',
        targetId: sub.id,
        changes: cancelled
          ? { status: { before: 'active', after: 'canceled' } }
          : { status: { before: null, after: 'active' }, userId: { before: null, after: sub.userId }, mappingId: { before: null, after: sub.mappingId } },
        requestId: by.requestId,
      }),
    ],
    jobs: [],
  };
}

/** The audit record of one mapping batch (`mappings.batch_update`, target
 *  `{paymentProvider}/{externalProductId}`): each row's changed fields as `{mappingId}.{field}`,
 *  `before` null for a mapping the batch created. */
export function mappingBatchAudit(
  batch: { realmId: string; paymentProvider: string; externalProductId: string; rows: Array<{ before: EntitlementMapping | null; after: EntitlementMapping }> },
  by: { actor: Actor; requestId: string | null },
  now: number,
): AuditRecord {
  const changes: Record<string, FieldChange> = {};
  for (const { before, after } of batch.rows) {
    const fields = fieldChanges(before, after, {
      skip: ['id', 'realmId', 'paymentProvider', 'externalProductId', 'activeSubscriptions', 'createdAt', 'updatedAt'],
    });
    for (const [field, change] of Object.entries(fields)) changes[`${after.id}.${field}`] = change;
  }
  return newAuditRecord({
    at: now,
    realmId: batch.realmId,
    actor: by.actor,
    action: 'mappings.batch_update',
    targetId: `${batch.paymentProvider}/${batch.externalProductId}`,
    changes,
    requestId: by.requestId,
  });
}
