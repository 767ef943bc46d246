// The event types of the service (docs/events.md "Event types"), written out by hand: tests compare
// the code's list (server/events/model.ts), the documentation's tables and what the API accepts
// with it.
export const EVENT_TYPES_DOCUMENTED = [
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
];
