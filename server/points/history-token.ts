// The page token of a points history listing (docs/points.md): opaque to callers, it carries where
// the last page ended and which listing it belongs to (events/page-token.ts, the format every
// listing's token shares). It grants nothing (a caller may only page through a history it may
// already read), so it is not signed; a token of another user's or another kind's listing, or
// anything else, is refused with a 400 naming pageToken rather than silently starting over.
import { decodePageToken, encodePageToken } from '../events/page-token.ts';
import type { HistoryCursor } from './model.ts';

/** The listing a token belongs to: the realm, the user and the kind filter (null = every kind). */
export interface HistoryListing {
  realmId: string;
  userId: string;
  kind: string | null;
}

const listingOf = (l: HistoryListing) => [l.realmId, l.userId, l.kind];

export function encodeHistoryToken(cursor: HistoryCursor, listing: HistoryListing): string {
  return encodePageToken({ at: cursor.createdAt, id: cursor.transactionId }, listingOf(listing));
}

/** The cursor a token carries; '' is the first page (null). */
export function decodeHistoryToken(token: string, listing: HistoryListing): HistoryCursor | null {
  const start = decodePageToken(token, listingOf(listing));
  return start && { createdAt: start.at, transactionId: start.id };
}
