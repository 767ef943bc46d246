// The events (docs/events.md) and audit record of a payment provider's applied notification,
// planned beside its other decisions and written in its transaction: pure but for fresh ids.
import { type Actor, type AuditRecord, type FieldChange, REDACTED } from '../audit/model.ts';
import { type Emitted, newAuditRecord, newEvent } from '../events/plan.ts';
import type { PaymentProvider } from './notifications.ts';

export interface AppliedEffect {
  realmId: string;
  provider: PaymentProvider;
  /** The notification's record id (bn_…), kept as the audit record's request. */
  notificationId: string;
  type: string;
  userId: string;
  externalSubscriptionId: string;
  /** The subscription the notification started (with its mapping), if any. */
  started: { subscriptionId: string; mappingId: string } | null;
  /** The active subscription it ended (a product change ends the old one too), if any. */
  ended: string | null;
  /** The subscription it kept (a renewal), when it neither started nor ended one. */
  kept: string | null;
  now: number;
}

/** subscription.activated / subscription.cancelled for what changed, and one audit record of the
 *  effect by the provider: subscription.activate, .cancel, .change (both) or .renew (neither). */
export function appliedRecords(e: AppliedEffect): Emitted {
  const base = { userId: e.userId, paymentProvider: e.provider, externalSubscriptionId: e.externalSubscriptionId, notificationType: e.type };
  const events = [
    ...(e.ended ? [newEvent('subscription.cancelled', e.realmId, e.now, { ...base, subscriptionId: e.ended })] : []),
    ...(e.started ? [newEvent('subscription.activated', e.realmId, e.now, { ...base, ...e.started })] : []),
  ];
  const action = e.started && e.ended ? 'change' : e.started ? 'activate' : e.ended ? 'cancel' : 'renew';
  const target = e.started?.subscriptionId ?? e.ended ?? e.kept ?? e.externalSubscriptionId;
  const changes =
    action === 'renew'
      ? {}
      : {
          ...(e.ended ? { [`${e.ended}.status`]: { before: 'active', after: 'canceled' } } : {}),
          ...(e.started ? { [`${e.started.subscriptionId}.status`]: { before: null, after: 'active' } } : {}),
        };
  const audit = newAuditRecord({
    at: e.now,
    realmId: e.realmId,
    actor: { type: e.provider, id: e.provider },
    action: `subscription.${action}`,
    targetId: target,
    changes,
    requestId: e.notificationId,
  });
  return { events, audit: [audit], jobs: [] };
}

/** The audit record of an operator's change to a provider's settings (billing_provider.update):
 *  each changed field, a new secret as "[redacted]". */
export function settingsAudit(c: {
  realmId: string;
  provider: PaymentProvider;
  before: Record<string, unknown> | null;
  after: Record<string, unknown>;
  secretSet: boolean;
  actor: Actor;
  requestId: string | null;
  now: number;
}): AuditRecord {
  const changes: Record<string, FieldChange> = {};
  for (const k of new Set([...Object.keys(c.before ?? {}), ...Object.keys(c.after)])) {
    const before = c.before?.[k] ?? null;
    const after = c.after[k] ?? null;
    if (JSON.stringify(before) !== JSON.stringify(after)) changes[k] = { before, after };
  }
  if (c.secretSet) changes.webhookSecret = { before: REDACTED, after: REDACTED };
  return newAuditRecord({
    at: c.now,
    realmId: c.realmId,
    actor: c.actor,
    action: 'billing_provider.update',
    targetId: c.provider,
    changes,
    requestId: c.requestId,
  });
}
