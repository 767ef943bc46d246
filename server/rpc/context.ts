// What every handler receives besides its request, whichever transport carried the call.
import type { Logger } from '../lib/log.ts';

export interface ApiKeyPrincipal {
  kind: 'api_key';
  keyId: string;
  realm: string; // a realm id or '*'
  permissions: string[];
}

export interface UserPrincipal {
  kind: 'user';
  realmId: string;
  userId: string;
  clientId: string;
  sid: string;
}

export type Principal = ApiKeyPrincipal | UserPrincipal;

export interface CallContext {
  requestId: string;
  transport: 'grpc' | 'http';
  /** Client IP address (X-Forwarded-For only with --trust-proxy). */
  clientIp: string;
  /** A request header / metadata value by lower-case name. */
  header(name: string): string | undefined;
  principal: Principal | null;
  log: Logger;
}

export function hasPermission(p: ApiKeyPrincipal, permission: string): boolean {
  return p.permissions.includes('*') || p.permissions.includes(permission);
}

export function keyCoversRealm(p: ApiKeyPrincipal, realmId: string): boolean {
  return p.realm === '*' || p.realm === realmId;
}
