// Rolling-window maths, pure (docs/points.md).
// A window of W seconds at time `now` covers consumption at times t with now − W < t <= now: a
// consume at t stops counting at exactly t + W.
import { badRequest } from '../errors.ts';
import type { QuotaKind, QuotaWindow, WindowEntitlement, WindowRow } from './model.ts';

export const MAX_WINDOWS = 8;
/** The longest window: 366 days, the usage history every window can count on (docs/points.md). */
export const MAX_WINDOW_SECONDS = 31_622_400;

/** The first rule a window list breaks, as `field: message`, or null. `field` names the list
 *  (e.g. `updates[1].quotaWindows`); rows are named `field[i].windowSeconds`. An empty list is
 *  allowed: it means "no windows". Both fields of a row are required: an absent one is never
 *  read as 0. */
export function windowListProblem(
  windows: ReadonlyArray<{ windowSeconds?: unknown; limit?: unknown }>,
  field: string,
): { field: string; message: string } | null {
  if (windows.length > MAX_WINDOWS) return { field, message: `at most ${MAX_WINDOWS} windows, got ${windows.length}` };
  const seen = new Map<number, number>();
  for (let i = 0; i < windows.length; i++) {
    const w = windows[i]!;
    const row = `${field}[${i}]`;
    const seconds = intProblem(w.windowSeconds, 1, MAX_WINDOW_SECONDS);
    if (seconds) return { field: `${row}.windowSeconds`, message: seconds };
    const limit = intProblem(w.limit, 0, Number.MAX_SAFE_INTEGER);
    if (limit) return { field: `${row}.limit`, message: limit };
    const s = w.windowSeconds as number;
    const prev = seen.get(s);
    if (prev !== undefined) return { field: `${row}.windowSeconds`, message: `duplicate window length ${s} (same as ${field}[${prev}])` };
    seen.set(s, i);
  }
  return null;
}

function intProblem(v: unknown, min: number, max: number): string | null {
  if (v === undefined || v === null) return 'required';
  if (typeof v !== 'number' || !Number.isInteger(v)) return 'must be an integer';
  if (v < min) return min === 0 ? 'must be ≥ 0' : `must be > ${min - 1}`;
  if (v > max) return `must be at most ${max}${max === MAX_WINDOW_SECONDS ? ' (366 days)' : ''}`;
  return null;
}

/** windowListProblem as a 400 naming the row and field. Returns the cleaned list. */
export function validateWindows(windows: ReadonlyArray<{ windowSeconds?: unknown; limit?: unknown }>, field: string): QuotaWindow[] {
  const p = windowListProblem(windows, field);
  if (p) throw badRequest(`${p.field}: ${p.message}`, { field: p.field });
  return windows.map((w) => ({ windowSeconds: Number(w.windowSeconds), limit: Number(w.limit) }));
}

const NAMED: Record<number, string> = { 18000: '5h', 86400: 'day', 604800: 'week', 2592000: 'month' };

/** Keys (docs/points.md): 18000 `5h`, 86400 `day`, 604800 `week`, 2592000 `month`, else the largest
 *  unit that divides evenly: `{n}d`, `{n}h`, `{n}m` or `{n}s`. */
export function windowKey(windowSeconds: number): string {
  const named = NAMED[windowSeconds];
  if (named) return named;
  if (windowSeconds % 86400 === 0) return `${windowSeconds / 86400}d`;
  if (windowSeconds % 3600 === 0) return `${windowSeconds / 3600}h`;
  if (windowSeconds % 60 === 0) return `${windowSeconds / 60}m`;
  return `${windowSeconds}s`;
}

/** The window of W seconds at `now` covers consumption at times t with windowStart < t <= now. */
export function windowStart(now: number, windowSeconds: number): number {
  return now - windowSeconds * 1000;
}

/** An entitlement is active from `startsAt` until `endsAt`, which it is not active at. The stores'
 *  SQL mirrors this where it reads active entitlements (`starts_at <= now AND (ends_at IS NULL OR
 *  ends_at > now)`). */
export function isActive(e: { startsAt: number; endsAt: number | null }, now: number): boolean {
  return e.startsAt <= now && (e.endsAt === null || now < e.endsAt);
}

/** The windows that bind a kind: every window of its active entitlements, one per length (the
 *  smallest limit wins, since available = min over all of them), shortest first. */
export function bindingWindows(entitlements: WindowEntitlement[], kind: QuotaKind, now: number): QuotaWindow[] {
  // Kept in order as it fills (a few windows; asked on every consume): no map, sort or copies.
  const out: QuotaWindow[] = [];
  for (const e of entitlements) {
    if (e.kind !== kind || !isActive(e, now)) continue;
    for (const w of e.windows) {
      let i = 0;
      while (i < out.length && out[i]!.windowSeconds < w.windowSeconds) i++;
      const same = out[i];
      if (same === undefined || same.windowSeconds !== w.windowSeconds) out.splice(i, 0, { windowSeconds: w.windowSeconds, limit: w.limit });
      else if (w.limit < same.limit) out[i] = { windowSeconds: w.windowSeconds, limit: w.limit };
    }
  }
  return out;
}

/** What the ledger says about one window: usage and the first and last consume times inside it. */
export interface WindowUsageFacts {
  used: number;
  /** Time of the oldest consume still inside the window, or null. */
  oldestAt: number | null;
  /** Time of the newest consume inside the window, or null. */
  newestAt: number | null;
}

/** The rows of one kind, with `isTightest` on the single row that bounds it (smallest remaining,
 *  the shorter window on a tie). */
export function windowRows(kind: QuotaKind, windows: QuotaWindow[], facts: WindowUsageFacts[]): WindowRow[] {
  const rows: WindowRow[] = windows.map((w, i) => {
    const f = facts[i]!;
    const remaining = Math.max(0, w.limit - f.used);
    const ms = w.windowSeconds * 1000;
    return {
      creditKind: kind,
      key: windowKey(w.windowSeconds),
      windowSeconds: w.windowSeconds,
      limit: w.limit,
      used: f.used,
      remaining,
      nextRecoveryAt: f.used > 0 && f.oldestAt !== null ? f.oldestAt + ms : null,
      resetsAt: f.used > 0 && f.newestAt !== null ? f.newestAt + ms : null,
      isTightest: false,
      exhausted: remaining === 0,
    };
  });
  let tight = -1;
  rows.forEach((r, i) => {
    if (tight < 0 || r.remaining < rows[tight]!.remaining) tight = i;
  });
  if (tight >= 0) rows[tight]!.isTightest = true;
  return rows;
}

/** Available quota of a kind: max(0, min over its windows of limit − used); 0 without windows. */
export function availableOf(rows: WindowRow[]): number {
  if (rows.length === 0) return 0;
  let least = Number.POSITIVE_INFINITY;
  for (const r of rows) least = Math.min(least, r.limit - r.used);
  return Math.max(0, least);
}
