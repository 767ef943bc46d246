// node:http2 keeps the open streams of a session in a Map (its session state's `streams`): a
// stream is set in it when its HEADERS arrive and deleted when it is destroyed. Such a Map promotes
// every call once one of its tables has grown old (lib/flat-table.ts): a session that waits between
// calls while the process works on others (a round of logins over HTTP) gets there, and from then
// on each stream it serves, with the whole call behind it (grpc-js's call, the chain's context, the
// answer), is promoted and freed only by a full GC. Measured on the development machine: after such
// a round every consume on the session promoted ~3.7 KB, a megabyte per scavenge, against 25 KB a
// scavenge before; a bare grpc-js echo server does it from its first calls (README, "Benchmarks").
// So each session grpc-js's servers accept keeps its streams in a FlatTable instead: node 20 reads
// the table with get, set, delete, size and forEach, and a FlatTable answers the rest of a Map's
// reading API too.
import type { Http2Server, Http2Session } from 'node:http2';
import type * as grpc from '@grpc/grpc-js';
import { FlatTable } from '../lib/flat-table.ts';
import type { Logger } from '../lib/log.ts';

/** The state node keeps on `session` (its `state` symbol, node 20 and later), where its streams
 *  are; undefined when there is none. */
export function sessionState(session: Http2Session): { streams?: unknown } | undefined {
  const key = Object.getOwnPropertySymbols(session).find((s) => s.description === 'state');
  return key === undefined ? undefined : (session as unknown as Record<symbol, { streams?: unknown } | undefined>)[key];
}

/** The HTTP/2 servers grpc-js serves `server` on (once bound); undefined where it keeps none where
 *  this module knows. */
export function http2ServersOf(server: grpc.Server): Http2Server[] | undefined {
  const servers = (server as unknown as { http2Servers?: unknown }).http2Servers;
  return servers instanceof Map && servers.size > 0 ? [...(servers.keys() as Iterable<Http2Server>)] : undefined;
}

/** Gives `session` a FlatTable for its streams (true when it has one); false when it does not keep
 *  them where node 20 and later do. Only before the session's first stream: an open one stays
 *  where node put it. */
export function useStreamTable(session: Http2Session): boolean {
  const state = sessionState(session);
  if (!state) return false;
  const streams = state.streams as { size?: unknown; get?: unknown; set?: unknown; delete?: unknown; forEach?: unknown } | undefined;
  if (streams instanceof FlatTable) return true;
  const mapLike =
    typeof streams?.get === 'function' && typeof streams.set === 'function' && typeof streams.delete === 'function' && typeof streams.forEach === 'function';
  if (!mapLike || streams.size !== 0) return false;
  state.streams = FlatTable.byNumber();
  return true;
}

/** Every session the HTTP/2 servers of `server` (grpc-js's, once bound) accept from now on gets a
 *  FlatTable for its streams. Where grpc-js or node keep them elsewhere than this module knows,
 *  sessions keep node's Map, and the log says so once. */
export function useStreamTables(server: grpc.Server, log: Logger): void {
  const servers = http2ServersOf(server);
  const warn = (why: string) => log.warn('gRPC sessions keep their streams in a Map', { why });
  if (servers === undefined) {
    warn("grpc-js's HTTP/2 servers were not found");
    return;
  }
  let warned = false;
  for (const http2Server of servers) {
    http2Server.on('session', (session: Http2Session) => {
      if (useStreamTable(session) || warned) return;
      warned = true;
      warn("a session's state has no streams Map where node keeps it");
    });
  }
}
