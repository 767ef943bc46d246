// A fixed-window counter per key (client IP) per minute for native login. Pure: the time is a
// parameter. In memory, per process: good enough for one gatehouse process in front of SQLite.
export type RateDecision = { allowed: true } | { allowed: false; retryAfterS: number };

export class FixedWindowLimiter {
  private windows = new Map<string, { start: number; count: number }>();
  private lastSweep = 0;

  constructor(
    private readonly limit: number,
    private readonly windowMs = 60_000,
    private readonly maxKeys = 100_000,
  ) {}

  hit(key: string, now: number): RateDecision {
    if (this.limit <= 0) return { allowed: true };
    this.sweep(now);
    const start = now - (now % this.windowMs);
    let w = this.windows.get(key);
    if (!w || w.start !== start) {
      w = { start, count: 0 };
      this.windows.set(key, w);
    }
    w.count++;
    if (w.count <= this.limit) return { allowed: true };
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
