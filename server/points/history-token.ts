// The page token of a points history listing (docs/points.md): opaque to callers, it carries where
// the last page ended and which listing it belongs to, as base64url of a small versioned JSON. It
// grants nothing (a caller may only page through a history it may already read), so it is not
// signed; a token of another user's or another kind's listing, or anything else, is refused with a
// 400 naming pageToken rather than silently starting over.
import { badRequest } from '../errors.ts';
import { sha256Hex } from '../lib/ids.ts';
import type { HistoryCursor } from './model.ts';

const VERSION = 1;

/** The listing a token belongs to: the realm, the user and the kind filter (null = every kind). */
export interface HistoryListing {
  realmId: string;
  userId: string;
  kind: string | null;
}

// A short fingerprint of the listing: enough to tell one listing's tokens from another's.
const listingOf = (l: HistoryListing) => sha256Hex(JSON.stringify([l.realmId, l.userId, l.kind])).slice(0, 16);

export function encodeHistoryToken(cursor: HistoryCursor, listing: HistoryListing): string {
  return Buffer.from(JSON.stringify({ v: VERSION, l: listingOf(listing), t: cursor.createdAt, id: cursor.transactionId })).toString('base64url');
}

const invalid = () => badRequest('pageToken: not a page token of this listing', { field: 'pageToken' });

/** The cursor a token carries; '' is the first page (null). */
export function decodeHistoryToken(token: string, listing: HistoryListing): HistoryCursor | null {
  if (token === '') return null;
  if (token.length > 512 || !/^[A-Za-z0-9_-]+$/.test(token)) throw invalid();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw invalid();
  const { v, l, t, id, ...rest } = parsed as Record<string, unknown>;
  if (Object.keys(rest).length > 0 || v !== VERSION || l !== listingOf(listing)) throw invalid();
  if (typeof t !== 'number' || !Number.isSafeInteger(t) || t < 0) throw invalid();
  if (typeof id !== 'string' || id.length === 0 || id.length > 200) throw invalid();
  return { createdAt: t, transactionId: id };
}
