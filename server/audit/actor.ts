// Who made a change through the API, as its audit record names them (docs/events.md).
import type { CallContext } from '../rpc/context.ts';
import type { Actor } from './model.ts';

/** The calling API key, or the signed-in user. */
export function actorOf(ctx: CallContext): Actor {
  const p = ctx.principal;
  return p?.kind === 'api_key' ? { type: 'api_key', id: p.keyId } : { type: 'user', id: p?.userId ?? '' };
}

/** The caller and the request, for a change's audit record. */
export function changeBy(ctx: CallContext): { actor: Actor; requestId: string } {
  return { actor: actorOf(ctx), requestId: ctx.requestId };
}
