// Binds every RPC declared in proto/ to its implementation. An RPC without one stops the boot, so
// proto/ can never promise a route that does not exist.
import type { ErrorTranslator } from '../errors.ts';
import type { Handler, ServiceTable } from './context.ts';
import type { LoadedProtos, MethodInfo } from './proto.ts';

export interface BoundMethod {
  info: MethodInfo;
  handler: Handler;
  /** The store's translation of its database's errors (app.ts), if any. */
  translateError?: ErrorTranslator;
}

export function bindMethods(protos: LoadedProtos, services: ServiceTable, translateError?: ErrorTranslator): BoundMethod[] {
  const bound: BoundMethod[] = [];
  for (const info of protos.methods) {
    const impl = services[info.service]?.[lowerFirst(info.name)];
    if (typeof impl !== 'function') throw new Error(`no implementation for ${info.path}`);
    bound.push({ info, handler: impl, translateError });
  }
  for (const name of Object.keys(services)) {
    if (!protos.services.includes(name)) throw new Error(`implementation given for unknown service ${name}`);
  }
  return bound;
}

export function lowerFirst(s: string): string {
  return s.charAt(0).toLowerCase() + s.slice(1);
}
