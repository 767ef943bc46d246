// A fixed-window counter per key (client IP) per minute, shared by every login endpoint: /authorize,
// native login, the Apple web flow and the token endpoint (each call writes or checks login state,
// so one budget covers them all). Pure: the time is a parameter. In memory, per process.
import { GatehouseError } from '../errors.ts';

export type RateDecision = { allowed: true } | { allowed: false; retryAfterS: number };

const ALLOWED: RateDecision = { allowed: true };

export class FixedWindowLimiter {
  private windows = new Map<string, { start: number; count: number }>();
  private lastSweep = 0;

  constructor(
    private readonly limit: number,
    private readonly windowMs = 60_000,
    private readonly maxKeys = 100_000,
  ) {}

  hit(key: string, now: number): RateDecision {
    if (this.limit <= 0) return ALLOWED;
    this.sweep(now);
    const start = now - (now % this.windowMs);
    let w = this.windows.get(key);
    if (!w) {
      w = { start, count: 0 };
      this.windows.set(key, w);
    } else if (w.start !== start) {
      w.start = start;
      w.count = 0;
    }
    w.count++;
    if (w.count <= this.limit) return ALLOWED;
    return { allowed: false, retryAfterS: Math.max(1, Math.ceil((start + this.windowMs - now) / 1000)) };
  }

  /** Drops finished windows so memory stays bounded by the active callers. */
  private sweep(now: number): void {
    if (now - this.lastSweep < this.windowMs && this.windows.size < this.maxKeys) return;
    this.lastSweep = now;
    const start = now - (now % this.windowMs);
    for (const [k, w] of this.windows) if (w.start !== start) this.windows.delete(k);
    if (this.windows.size >= this.maxKeys) this.windows.clear(); // a flood of addresses: start over
  }
}

/** 429 `rate_limited` with Retry-After, as every limited endpoint answers it. */
export function rateLimited(retryAfterS: number): GatehouseError {
  return new GatehouseError('rate_limited', 'Too many login attempts; try again later', {
    headers: { 'retry-after': String(retryAfterS) },
    extra: { retryAfter: retryAfterS },
  });
}
