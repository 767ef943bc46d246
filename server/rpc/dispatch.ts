// Binds every RPC declared in proto/ to its implementation. An RPC without one stops the boot, so
// proto/ can never promise a route that does not exist.
import type { Req, Res } from './chain.ts';
import type { CallContext } from './context.ts';
import type { LoadedProtos, MethodInfo } from './proto.ts';
import type { ServiceTable } from './types.ts';

/** A handler as the transports call it: they decode requests to and encode answers from the plain
 *  objects of proto-loader, so past this point a method is found by name, not by type. */
export type BoundHandler = (req: Req, ctx: CallContext) => Promise<Res>;

export interface BoundMethod {
  info: MethodInfo;
  handler: BoundHandler;
}

export function bindMethods(protos: LoadedProtos, services: ServiceTable): BoundMethod[] {
  // The table is typed by the generated types of the same proto/ the methods come from.
  const table = services as unknown as Record<string, Record<string, BoundHandler | undefined> | undefined>;
  const bound: BoundMethod[] = [];
  for (const info of protos.methods) {
    const impl = table[info.service]?.[lowerFirst(info.name)];
    if (typeof impl !== 'function') throw new Error(`no implementation for ${info.path}`);
    bound.push({ info, handler: impl });
  }
  for (const name of Object.keys(services)) {
    if (!protos.services.includes(name)) throw new Error(`implementation given for unknown service ${name}`);
  }
  return bound;
}

export function lowerFirst(s: string): string {
  return s.charAt(0).toLowerCase() + s.slice(1);
}
