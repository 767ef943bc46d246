// IP binding of a token family (docs/login.md): `exact` keeps the issuing address, `subnet` its /24
// (IPv4) or /64 (IPv6). Pure.
import { isIP } from 'node:net';
import type { IpBinding } from '../admin/model.ts';

export function ipAllowed(bound: string, ip: string, mode: IpBinding): boolean {
  if (mode === 'off') return true;
  if (bound === 'unknown' || ip === 'unknown') return false;
  if (mode === 'exact') return expand(bound) === expand(ip);
  const a = expand(bound);
  const b = expand(ip);
  if (a === null || b === null) return false;
  if (isIP(bound) === 4 && isIP(ip) === 4) return a.split('.').slice(0, 3).join('.') === b.split('.').slice(0, 3).join('.');
  if (isIP(bound) === 6 && isIP(ip) === 6) return a.split(':').slice(0, 4).join(':') === b.split(':').slice(0, 4).join(':');
  return false;
}

/** Canonical long form: IPv4 as is, IPv6 as eight 4-digit groups. null when not an address. */
export function expand(ip: string): string | null {
  const v = isIP(ip);
  if (v === 4) return ip;
  if (v !== 6) return null;
  let s = ip.toLowerCase();
  // an embedded IPv4 tail (::ffff:1.2.3.4) becomes two groups
  const m = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (m) {
    const o = m[1]!.split('.').map(Number);
    s = s.slice(0, -m[1]!.length) + ((o[0]! << 8) | o[1]!).toString(16) + ':' + ((o[2]! << 8) | o[3]!).toString(16);
  }
  const [head, tail] = s.includes('::') ? s.split('::') : [s, undefined];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const fill = tail === undefined ? [] : Array(8 - h.length - t.length).fill('0');
  return [...h, ...fill, ...t].map((g) => g.padStart(4, '0')).join(':');
}
