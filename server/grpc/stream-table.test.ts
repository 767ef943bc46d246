import assert from 'node:assert/strict';
import http2, { type Http2Session } from 'node:http2';
import { describe, it } from 'node:test';
import * as grpc from '@grpc/grpc-js';
import { HealthImplementation, service as healthService } from 'grpc-health-check';
import { startInProcess } from '../../test/helpers/server.ts';
import { FlatTable } from '../lib/flat-table.ts';
import { createLogger } from '../lib/log.ts';
import { http2ServersOf, sessionState, useStreamTable, useStreamTables } from './stream-table.ts';

/** A logger that keeps its lines. */
function keptLog(): { log: ReturnType<typeof createLogger>; lines: string[] } {
  const lines: string[] = [];
  return { log: createLogger({ write: (l) => lines.push(l) }), lines };
}

const streamsOf = (session: Http2Session): unknown => sessionState(session)?.streams;

async function bound(): Promise<{ server: grpc.Server; port: number }> {
  const server = new grpc.Server();
  new HealthImplementation({ '': 'SERVING' }).addToServer(server);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  return { server, port };
}

const Health = grpc.makeClientConstructor(healthService as grpc.ServiceDefinition, 'Health');
const check = (client: grpc.Client) =>
  new Promise<unknown>((resolve, reject) =>
    (client as unknown as Record<string, (req: object, cb: (e: Error | null, r: unknown) => void) => void>).Check!({ service: '' }, (e, r) =>
      e ? reject(e) : resolve(r),
    ),
  );

describe('gRPC sessions keep their streams in a FlatTable', () => {
  it("serves calls with each session's streams in a FlatTable, emptied as they end, and closes a session with calls open", async () => {
    const { server, port } = await bound();
    const { log, lines } = keptLog();
    useStreamTables(server, log);
    const sessions: Http2Session[] = [];
    // Added after useStreamTables: sees each session once it has its table.
    for (const h of http2ServersOf(server)!) h.on('session', (s) => sessions.push(s));
    const client = new Health(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
    try {
      const answers = await Promise.all(Array.from({ length: 20 }, () => check(client)));
      assert.deepEqual(answers[19], { status: 'SERVING' });
      assert.equal(sessions.length, 1);
      const table = streamsOf(sessions[0]!);
      assert.ok(table instanceof FlatTable);
      assert.equal(table.size, 0);
      // A Watch stays open: the server's shutdown destroys it through the table's forEach.
      const watch = (client as unknown as { Watch(req: object): grpc.ClientReadableStream<unknown> }).Watch({ service: '' });
      const ended = new Promise<grpc.StatusObject>((resolve) => watch.on('status', resolve));
      watch.on('error', () => {});
      await new Promise((resolve) => watch.once('data', resolve));
      assert.equal(table.size, 1);
      server.forceShutdown();
      assert.notEqual((await ended).code, grpc.status.OK);
      assert.equal(table.size, 0);
      assert.deepEqual(lines, []);
    } finally {
      client.close();
      server.forceShutdown();
    }
  });

  it('leaves a session that does not keep its streams where node does as it is, and says so once', async () => {
    assert.equal(useStreamTable({} as Http2Session), false);
    const odd = { [Symbol('state')]: { streams: new Set() } } as unknown as Http2Session;
    assert.equal(useStreamTable(odd), false);
    const { log, lines } = keptLog();
    useStreamTables(new grpc.Server(), log); // not bound: no HTTP/2 server yet
    assert.equal(lines.length, 1);
    assert.match(lines[0]!, /"msg":"gRPC sessions keep their streams in a Map","why":"grpc-js's HTTP\/2 servers were not found"/);
  });

  it('is in place in a running gatehouse: its sessions hold a FlatTable, and its log says nothing of a Map', async () => {
    // The HTTP/2 servers grpc-js makes, seen as node makes them (grpc-js calls http2.createServer).
    const sessions: Http2Session[] = [];
    const createServer = http2.createServer;
    http2.createServer = ((...args: Parameters<typeof createServer>) => {
      const h = createServer(...args);
      h.on('session', (s) => sessions.push(s));
      return h;
    }) as typeof createServer;
    let srv: Awaited<ReturnType<typeof startInProcess>>;
    try {
      srv = await startInProcess({});
    } finally {
      http2.createServer = createServer;
    }
    try {
      const client = new Health(srv.grpc, grpc.credentials.createInsecure());
      try {
        assert.deepEqual(await check(client), { status: 'SERVING' });
      } finally {
        client.close();
      }
      assert.equal(sessions.length, 1);
      assert.ok(streamsOf(sessions[0]!) instanceof FlatTable);
      assert.doesNotMatch(srv.logs(), /keep their streams in a Map/);
    } finally {
      await srv.stop();
    }
  });
});
