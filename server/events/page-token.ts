// The page token of a listing (points history, audit log, webhook deliveries): opaque to callers,
// base64url of a small versioned JSON naming where the last page ended (time and id) and a short
// fingerprint of the listing it belongs to. It grants nothing, so it is not signed; a token of
// another listing, or anything else, is a 400 naming pageToken rather than a silent restart.
import { badRequest } from '../errors.ts';
import { sha256Hex } from '../lib/ids.ts';

const VERSION = 1;
const fingerprint = (listing: unknown) => sha256Hex(JSON.stringify(listing)).slice(0, 16);
const invalid = () => badRequest('pageToken: not a page token of this listing', { field: 'pageToken' });

export function encodePageToken(last: { at: number; id: string }, listing: unknown): string {
  return Buffer.from(JSON.stringify({ v: VERSION, l: fingerprint(listing), t: last.at, id: last.id })).toString('base64url');
}

/** Where the page starts; '' is the first page (null). */
export function decodePageToken(token: string, listing: unknown): { at: number; id: string } | null {
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
  if (Object.keys(rest).length > 0 || v !== VERSION || l !== fingerprint(listing)) throw invalid();
  if (typeof t !== 'number' || !Number.isSafeInteger(t) || t < 0) throw invalid();
  if (typeof id !== 'string' || id.length === 0 || id.length > 200) throw invalid();
  return { at: t, id };
}

/** A listing's page size: 1–200, default 50. */
export function pageSize(requested: number | undefined | null): number {
  if (requested === undefined || requested === null) return 50;
  if (!Number.isInteger(requested) || requested < 1 || requested > 200) throw badRequest('pageSize: from 1 to 200', { field: 'pageSize' });
  return requested;
}

/** A page read one row beyond its size (`limit + 1` rows asked for): the rows to show, and the
 *  token of the next page, '' when this one is the last. */
export function pageOf<T>(rows: T[], limit: number, listing: unknown, cursor: (row: T) => { at: number; id: string }): { shown: T[]; nextPageToken: string } {
  const shown = rows.slice(0, limit);
  const last = shown[shown.length - 1];
  return { shown, nextPageToken: rows.length > limit && last ? encodePageToken(cursor(last), listing) : '' };
}
