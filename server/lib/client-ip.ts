// The caller's IP as one canonical string (IPv4-mapped IPv6 folded to IPv4). A forwarded-for
// header is honoured only when the operator says trusted proxies sit in front (--trust-proxy N).
import { isIP } from 'node:net';

export function canonicalIp(addr: string | undefined | null): string {
  if (!addr) return 'unknown';
  let a = addr.trim();
  if (a.startsWith('[') && a.includes(']')) a = a.slice(1, a.indexOf(']'));
  if (a.toLowerCase().startsWith('::ffff:') && isIP(a.slice(7)) === 4) a = a.slice(7);
  return isIP(a) ? a.toLowerCase() : 'unknown';
}

/** The client address: with `trustedProxies` N > 0, the N-th entry of the forwarded-for list from
 *  the right; otherwise (or when that entry is missing or not an address) the socket peer. */
export function clientIp(peer: string | undefined, forwardedFor: string | undefined, trustedProxies: number): string {
  if (trustedProxies > 0 && forwardedFor) {
    const ip = canonicalIp(stripPort(forwardedEntry(forwardedFor, trustedProxies)));
    if (ip !== 'unknown') return ip;
  }
  return canonicalIp(peer);
}

/** The `hops`-th comma-separated entry from the right. Each proxy appends the address it received
 *  the request from (RFC 7239 §4 describes the same list for `Forwarded`), so the last `hops`
 *  entries were written by our trusted proxies and everything left of them is whatever the client
 *  sent (§8.1: any node, the client included, may write the header): the leftmost entry is never
 *  trusted for that reason. With fewer than `hops` entries every entry present was written by a
 *  trusted proxy (the request took a shorter path, e.g. it entered behind the outer one), so the
 *  leftmost is what the first trusted proxy on its path saw: the closest to the client that nobody
 *  outside could have written. Scans from the right without splitting. */
export function forwardedEntry(header: string, hops: number): string {
  let end = header.length;
  for (let i = 1; i < hops; i++) {
    const comma = end > 0 ? header.lastIndexOf(',', end - 1) : -1;
    if (comma < 0) break; // fewer entries than hops: the leftmost one
    end = comma;
  }
  const start = end > 0 ? header.lastIndexOf(',', end - 1) + 1 : 0;
  return header.slice(start, end);
}

/** "203.0.113.7:51234" → "203.0.113.7" (some proxies append the port); "[::1]:443" is handled by
 *  canonicalIp, and a bare IPv6 address has more than one colon. */
function stripPort(entry: string): string {
  const i = entry.indexOf(':');
  return i > 0 && entry.indexOf(':', i + 1) < 0 && entry.indexOf('.') > 0 ? entry.slice(0, i) : entry;
}

/** "ipv4:127.0.0.1:5000", "ipv6:[::1]:5000", "127.0.0.1:5000" (grpc-js getPeer forms) → address. */
export function grpcPeerAddress(peer: string): string {
  const p = peer.replace(/^ipv[46]:/, '');
  if (p.startsWith('[')) return p.slice(1, p.indexOf(']'));
  const i = p.lastIndexOf(':');
  return i > 0 && p.indexOf(':') === i ? p.slice(0, i) : p;
}
