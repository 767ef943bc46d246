// A fixed-window counter per key (client IP) per minute, shared by every login endpoint: /authorize,
// native login, the Apple web flow and the token endpoint (each call writes or checks login state,
// so one budget covers them all). Pure: the time is a parameter. In memory, per process.
import { isIP } from 'node:net';
import { GatehouseError } from '../errors.ts';
import { expand } from './ip-binding.ts';

export type RateDecision = { allowed: true } | { allowed: false; retryAfterS: number };

const ALLOWED: RateDecision = { allowed: true };

export class FixedWindowLimiter {
  private windows = new Map<string, { start: number; count: number }>();
  private sweptWindow = -1;

  constructor(
    private readonly limit: number,
    private readonly windowMs = 60_000,
    private readonly maxKeys = 100_000,
  ) {}

  hit(ip: string, now: number): RateDecision {
    if (this.limit <= 0) return ALLOWED;
    this.sweep(now);
    const start = now - (now % this.windowMs);
    const key = limiterKey(ip);
    let w = this.windows.get(key);
    if (!w) {
      // Full of callers active in this window: newcomers share one budget until it ends, so a flood
      // of fresh addresses can neither grow the map nor wipe the counts of those already in it.
      const k = this.windows.size >= this.maxKeys ? OVERFLOW : key;
      w = this.windows.get(k);
      if (!w) {
        w = { start, count: 0 };
        this.windows.set(k, w);
      }
    }
    if (w.start !== start) {
      w.start = start;
      w.count = 0;
    }
    w.count++;
    if (w.count <= this.limit) return ALLOWED;
    return { allowed: false, retryAfterS: Math.max(1, Math.ceil((start + this.windowMs - now) / 1000)) };
  }

  /** Drops the counters of finished windows, once per window: memory stays bounded by the callers
   *  of the current one (and by maxKeys), and a full map costs nothing per call. */
  private sweep(now: number): void {
    const start = now - (now % this.windowMs);
    if (start === this.sweptWindow) return;
    this.sweptWindow = start;
    for (const [k, w] of this.windows) if (w.start !== start) this.windows.delete(k);
  }
}

const OVERFLOW = 'overflow';

/** One budget per IPv4 address and per IPv6 /64: a single host is usually given a whole /64
 *  (RFC 4291 §2.5.1 interface identifiers), so counting each IPv6 address alone would let one
 *  caller rotate through millions of budgets. */
export function limiterKey(ip: string): string {
  if (isIP(ip) !== 6) return ip;
  return expand(ip)!.split(':', 4).join(':');
}

/** 429 `rate_limited` with Retry-After, as every limited endpoint answers it. */
export function rateLimited(retryAfterS: number): GatehouseError {
  return new GatehouseError('rate_limited', 'Too many login attempts; try again later', {
    headers: { 'retry-after': String(retryAfterS) },
    extra: { retryAfter: retryAfterS },
  });
}
