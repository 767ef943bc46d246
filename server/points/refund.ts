// Refunds (docs/points.md), pure: up to what is still refundable of a consume or settlement goes back
// to its sources, last-drawn first. The requested amount counts against the refundable rest whether
// or not every source can take its share back: quota whose time has left every window of its kind,
// and a balance that has expired or ended, take nothing (`returned` 0).
import { GatehouseError } from '../errors.ts';
import { type BalanceLife, balanceIsLive } from './balance-life.ts';
import { type ChargeLine, isWindowLine, type LineReturn } from './charges.ts';
import type { QuotaKind, RefundLine } from './model.ts';
import type { UserPointsState } from './state.ts';

/** A consume or settlement as kept for refunds. */
export interface RefundableTransaction {
  transactionId: string;
  userId: string;
  amount: number;
  /** Everything asked back by earlier refunds. */
  refunded: number;
  lines: ChargeLine[];
}

export interface RefundDecision {
  amount: number;
  /** The transaction's lines with this refund's shares counted. */
  lines: ChargeLine[];
  /** This refund per allocation line (lines with a share only, in allocation order). */
  shares: RefundLine[];
  /** What actually goes back, to which line. */
  returns: LineReturn[];
  refunded: number;
}

export function refundExceeds(refundable: number, asked: number): GatehouseError {
  return new GatehouseError('refund_exceeds', `Only ${refundable} of this transaction can still be refunded, asked ${asked}`, {
    extra: { refundable, asked },
  });
}

/** The refund of `asked` (null = all that is still refundable); `canReturn` says whether a line's
 *  source can take points back now. Throws refund_exceeds past the refundable rest (or when nothing
 *  is left of it). */
export function planRefund(tx: RefundableTransaction, asked: number | null, canReturn: (line: ChargeLine) => boolean): RefundDecision {
  const refundable = tx.amount - tx.refunded;
  const amount = asked ?? refundable;
  if (amount > refundable || amount <= 0) throw refundExceeds(refundable, amount);
  const lines = tx.lines.map((l) => ({ ...l }));
  const share = new Array<number>(lines.length).fill(0);
  const returns: LineReturn[] = [];
  let left = amount;
  for (let i = lines.length - 1; i >= 0 && left > 0; i--) {
    const l = lines[i]!;
    const take = Math.min(l.amount - (l.refunded ?? 0), left);
    if (take <= 0) continue;
    share[i] = take;
    l.refunded = (l.refunded ?? 0) + take;
    left -= take;
    if (canReturn(tx.lines[i]!)) returns.push({ line: tx.lines[i]!, amount: take });
  }
  const back = new Map(returns.map((r) => [r.line, r.amount]));
  const shares: RefundLine[] = [];
  tx.lines.forEach((l, i) => {
    if (share[i]! > 0) shares.push({ creditKind: l.creditKind, sourceId: l.sourceId, amount: share[i]!, returned: back.get(l) ?? 0 });
  });
  return { amount, lines, shares, returns, refunded: returns.reduce((s, r) => s + r.amount, 0) };
}

/** Whether a refunded line's source takes its points back at `now`: a window line while its charge
 *  is inside the longest window of its kind the user has (`longest`, longestWindows), a balance
 *  line while its balance (`balanceOf`; undefined when gone) is live (balanceIsLive). */
export function returnable(longest: Map<QuotaKind, number>, balanceOf: (id: string) => BalanceLife | undefined, now: number): (line: ChargeLine) => boolean {
  return (l) => {
    if (!isWindowLine(l)) {
      const b = balanceOf(l.sourceId);
      return b !== undefined && balanceIsLive(b, now);
    }
    const w = longest.get(l.creditKind as QuotaKind);
    return w !== undefined && l.at > now - w * 1000;
  };
}

/** The longest window of each quota kind the user has now, in seconds: quota drawn before it has
 *  left every window of its kind and can take nothing back. */
export function longestWindows(st: UserPointsState): Map<QuotaKind, number> {
  const out = new Map<QuotaKind, number>();
  for (const w of st.windows) out.set(w.creditKind, Math.max(out.get(w.creditKind) ?? 0, w.windowSeconds));
  return out;
}
