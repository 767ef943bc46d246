// google.protobuf.Timestamp as proto-loader objects ({seconds, nanos}) ↔ epoch milliseconds.
export interface Timestamp {
  seconds: number;
  nanos: number;
}

export function toTimestamp(ms: number): Timestamp {
  const seconds = Math.floor(ms / 1000);
  return { seconds, nanos: (ms - seconds * 1000) * 1e6 };
}

export function toTimestampOrNull(ms: number | null | undefined): Timestamp | null {
  return ms == null ? null : toTimestamp(ms);
}

export function fromTimestamp(ts: { seconds?: number | string; nanos?: number } | null | undefined): number | null {
  if (!ts) return null;
  return Number(ts.seconds ?? 0) * 1000 + Math.floor(Number(ts.nanos ?? 0) / 1e6);
}
