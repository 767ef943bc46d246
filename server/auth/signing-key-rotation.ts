// When a realm's access-token signing key is replaced, and how long the replaced one lives on
// (docs/security.md). A rotated key keeps verifying, and stays in the JWKS, until every token it
// signed has expired: the realm's longest access-token lifetime after the rotation. Then it is
// retired: no longer published, its tokens inactive.
import type { ChangeBy } from '../admin/store.ts';
import type { AuditRecord } from '../audit/model.ts';
import { newAuditRecord } from '../events/plan.ts';
import type { SigningKeyRecord, SigningKeyRotation } from './store.ts';

/** What the store is told to do with the realm's current key: keep it, or replace it with a new
 *  one and retire it at `retireAt` (epoch ms). */
export type RotationDecision = { rotate: false } | { rotate: true; retireAt: number };

/** Why a rotation is asked for: by an operator (always), or by the schedule (only a key older than
 *  `maxAgeMs`). */
export type RotationReason = { kind: 'operator' } | { kind: 'schedule'; maxAgeMs: number };

/**
 * `current`: the realm's current key, or null when it has none yet (a new one is simply made).
 * `longestAccessTtlS`: the longest lifetime an access token of the realm can have been given
 * (its clients' setting and its live sessions', family-lifetime.ts sessionIsLive); null when the
 * realm has neither: no token signed with the replaced key can still be in use, it retires now.
 */
export function decideRotation(current: SigningKeyRecord | null, now: number, longestAccessTtlS: number | null, reason: RotationReason): RotationDecision {
  if (reason.kind === 'schedule' && current !== null && !rotationDue(current, now, reason.maxAgeMs)) return { rotate: false };
  return { rotate: true, retireAt: now + (longestAccessTtlS ?? 0) * 1000 };
}

/** What a store writes for `decision` (the current key's retirement, the new key) and answers. */
export function rotationWrites(
  current: SigningKeyRecord | null,
  decision: RotationDecision,
  create: (current: SigningKeyRecord | null) => SigningKeyRecord,
  by: ChangeBy,
): { retire: { kid: string; at: number } | null; insert: SigningKeyRecord | null; answer: SigningKeyRotation; audit: AuditRecord[] } {
  if (!decision.rotate) return { retire: null, insert: null, answer: { current: current!, replaced: null, rotated: false }, audit: [] };
  const next = create(current);
  const replaced = current && { ...current, retiredAt: decision.retireAt };
  // The record names the keys by kid and the retirement time: never key material (docs/events.md).
  const changes: AuditRecord['changes'] = replaced
    ? { previousKid: { before: null, after: replaced.kid }, previousRetiresAt: { before: null, after: decision.retireAt } }
    : {};
  const audit = newAuditRecord({
    at: next.createdAt,
    realmId: next.realmId,
    actor: by.actor,
    action: 'signing_key.rotate',
    targetId: next.kid,
    changes,
    requestId: by.requestId,
  });
  return {
    retire: replaced && { kid: replaced.kid, at: decision.retireAt },
    insert: next,
    answer: { current: next, replaced, rotated: true },
    audit: [audit],
  };
}

/** A scheduled rotation is due once the key is `maxAgeMs` old. */
export function rotationDue(key: Pick<SigningKeyRecord, 'createdAt'>, now: number, maxAgeMs: number): boolean {
  return now - key.createdAt >= maxAgeMs;
}

/** Whether a key verifies tokens and is in the JWKS at `now`: the current one, or a rotated one
 *  not yet retired. */
export function keyInService(key: Pick<SigningKeyRecord, 'retiredAt'>, now: number): boolean {
  return key.retiredAt === null || key.retiredAt > now;
}
