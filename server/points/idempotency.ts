// Idempotency keys (docs/points.md): the same key with the same request answers the first answer
// again and changes nothing; the same key with another request is refused, 409
// idempotency_conflict. A request is compared by a hash of its body.
import { GatehouseError } from '../errors.ts';

/** What is kept under a key: the first request's hash (and, alongside, its answer). */
export interface StoredRequest {
  requestHash: string;
  /** The answer was for an account since deleted, whose stored answers its purge has not reached
   *  yet (docs/login.md "Deleting an account"): never answered again. */
  ownerDeleted?: boolean | number;
}

/** The stored answer to replay, or null to go on (no key, or nothing stored under it); throws
 *  idempotency_conflict when the key was used with another request. */
export function replayOf<S extends StoredRequest>(key: string | null, stored: S | undefined, requestHash: string): S | null {
  if (key === null || stored === undefined) return null;
  if (stored.requestHash !== requestHash) {
    throw new GatehouseError('idempotency_conflict', `Idempotency key ${key} was used with another request`, { extra: { idempotencyKey: key } });
  }
  // The same request again names the deleted account (or its hold or movement): it goes on, to
  // the not_found every call on that account answers.
  if (stored.ownerDeleted) return null;
  return stored;
}
