// Events: what happened, written to the outbox in the transaction of the change it
// reports. `data` carries ids and figures, never a token or secret.

export const EVENT_TYPES = [
  'user.created',
  'user.deleted',
  'user.identity_linked',
  'user.identity_unlinked',
  'user.email_forwarding_changed',
  'session.revoked',
  'points.granted',
  'points.consumed',
  'points.hold_expired',
  'points.refunded',
  'points.balance_low',
  'points.quota_exhausted',
  'points.quota_recovered',
  'subscription.activated',
  'subscription.cancelled',
  'apple.notification',
  'webhook.test',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** Why a session ended (`session.revoked`'s `reason`). */
export type SessionRevokedReason = 'signed_out' | 'refresh_reuse' | 'apple_consent_revoked' | 'user_deleted' | 'client_disabled' | 'admin';

export interface GatehouseEvent {
  /** `evt_…`: the same on every delivery attempt (receivers dedupe on it). */
  id: string;
  type: EventType;
  realmId: string;
  createdAt: number;
  data: Record<string, unknown>;
}

/** An event without its data: what the outbox's fan-out reads. */
export type EventHeader = Omit<GatehouseEvent, 'data'>;
