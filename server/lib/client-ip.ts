// The caller's IP as one canonical string (IPv4-mapped IPv6 folded to IPv4). A forwarded-for
// header is honoured only when the operator says a trusted proxy sits in front (--trust-proxy).
import { isIP } from 'node:net';

export function canonicalIp(addr: string | undefined | null): string {
  if (!addr) return 'unknown';
  let a = addr.trim();
  if (a.startsWith('[') && a.includes(']')) a = a.slice(1, a.indexOf(']'));
  if (a.toLowerCase().startsWith('::ffff:') && isIP(a.slice(7)) === 4) a = a.slice(7);
  return isIP(a) ? a.toLowerCase() : 'unknown';
}

export function clientIp(peer: string | undefined, forwardedFor: string | undefined, trustProxy: boolean): string {
  if (trustProxy && forwardedFor) {
    const first = forwardedFor.split(',')[0]!.trim();
    const ip = canonicalIp(first);
    if (ip !== 'unknown') return ip;
  }
  return canonicalIp(peer);
}

/** "ipv4:127.0.0.1:5000", "ipv6:[::1]:5000", "127.0.0.1:5000" (grpc-js getPeer forms) → address. */
export function grpcPeerAddress(peer: string): string {
  const p = peer.replace(/^ipv[46]:/, '');
  if (p.startsWith('[')) return p.slice(1, p.indexOf(']'));
  const i = p.lastIndexOf(':');
  return i > 0 && p.indexOf(':') === i ? p.slice(0, i) : p;
}
