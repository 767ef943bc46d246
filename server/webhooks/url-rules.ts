// Which URLs may receive webhooks (docs/events.md): https, or http to a literal loopback host; no
// userinfo; at most 2 048 characters; and a host that resolves to a private, link-local, loopback
// (other than a literal one) or unspecified address is refused, unless --webhooks-allow-private.
// The syntax and the address ranges are pure; the resolution takes its lookup as a parameter.
import { BlockList, isIP } from 'node:net';
import { badRequest } from '../errors.ts';
import { MAX_URL_LENGTH } from './model.ts';

const LITERAL_LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** The addresses no webhook may reach unless the operator allows private ones. */
const PRIVATE = new BlockList();
// RFC 1918, RFC 6598 (shared CGNAT), loopback, link-local (RFC 3927, cloud metadata), unspecified.
for (const [net, prefix] of [
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['0.0.0.0', 8],
] as const)
  PRIVATE.addSubnet(net, prefix, 'ipv4');
// IPv6 loopback, unspecified, unique local (RFC 4193), link-local (RFC 4291).
PRIVATE.addAddress('::1', 'ipv6');
PRIVATE.addAddress('::', 'ipv6');
PRIVATE.addSubnet('fc00::', 7, 'ipv6');
PRIVATE.addSubnet('fe80::', 10, 'ipv6');

/** Whether an address is private, link-local, loopback or unspecified (IPv4-mapped IPv6 as its IPv4). */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return PRIVATE.check(mapped[1]!, 'ipv4');
  const family = isIP(address);
  if (family === 0) return true; // not an address: never reachable
  return PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export interface CheckedUrl {
  url: URL;
  /** 127.0.0.1, [::1] or localhost: reached without resolution rules. */
  literalLoopback: boolean;
}

/** The URL's syntax rules; a 400 naming `url` when one is broken. */
export function checkUrlSyntax(raw: string): CheckedUrl {
  const refuse = (why: string) => badRequest(`url: ${why}`, { field: 'url' });
  if (raw.length > MAX_URL_LENGTH) throw refuse(`at most ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse('not an absolute URL');
  }
  if (url.username !== '' || url.password !== '') throw refuse('must not carry a user name or password');
  const literalLoopback = LITERAL_LOOPBACK.has(url.hostname);
  if (url.protocol === 'http:') {
    if (!literalLoopback) throw refuse('http only to 127.0.0.1, [::1] or localhost; use https');
  } else if (url.protocol !== 'https:') {
    throw refuse('must be https (or http to a literal loopback host)');
  }
  if (url.hostname === '') throw refuse('needs a host');
  return { url, literalLoopback };
}

/** A host's addresses (dns.promises.lookup with all: true, or a test's fixed answers). */
export type HostResolver = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

/** The addresses to connect to for `checked`: every one the host resolves to, each allowed. A
 *  refusal's message says why (the registration answers it as a 400, a delivery records it). */
export async function resolveAllowed(checked: CheckedUrl, resolve: HostResolver, allowPrivate: boolean): Promise<Array<{ address: string; family: number }>> {
  const host = checked.url.hostname.replace(/^\[|\]$/g, '');
  // localhost is loopback by definition (RFC 6761 §6.3): not asked of a resolver.
  const family = host === 'localhost' ? 4 : isIP(host);
  const literal = host === 'localhost' ? '127.0.0.1' : host;
  let addresses: Array<{ address: string; family: number }>;
  try {
    addresses = family !== 0 ? [{ address: literal, family }] : await resolve(host);
  } catch {
    addresses = [];
  }
  if (addresses.length === 0) throw badRequest(`url: ${host} does not resolve`, { field: 'url' });
  if (checked.literalLoopback || allowPrivate) return addresses;
  const refused = addresses.find((a) => isPrivateAddress(a.address));
  if (refused) throw badRequest(`url: ${host} resolves to a private, loopback, link-local or unspecified address (${refused.address})`, { field: 'url' });
  return addresses;
}
