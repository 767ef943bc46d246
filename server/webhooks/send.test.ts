import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { send } from './send.ts';

const LOOPBACK = { address: '127.0.0.1', family: 4 };

describe('send', () => {
  it("leaves a POST unsent once it has waited sendWithinMs for the endpoint's connection, busy with one the receiver never answers", async () => {
    const received: string[] = [];
    let arrived: () => void;
    const firstArrived = new Promise<void>((r) => (arrived = r));
    const server: Server = createServer((req) => {
      req.resume();
      req.on('end', () => {
        received.push(String(req.headers['webhook-id']));
        arrived();
      }); // never answered
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`);
    try {
      const first = send(url, LOOPBACK, { 'webhook-id': 'first' }, '{}', { timeoutMs: 3_600_000, sendWithinMs: 3_600_000 });
      // The receiver holds the first POST before the second is tried: closing its connections then
      // ends the first (closed before it arrived, the first would wait out its hour).
      await firstArrived;
      const second = await send(url, LOOPBACK, { 'webhook-id': 'second' }, '{}', { timeoutMs: 3_600_000, sendWithinMs: 50 });
      assert.deepEqual(second, { httpStatus: null, error: "not sent: the endpoint's connection stayed busy for 50 ms", durationMs: 0 });
      server.closeAllConnections();
      assert.equal((await first).httpStatus, null);
      assert.deepEqual(received, ['first'], 'the second POST never reached the receiver');
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it("delivers another endpoint's POSTs while one endpoint holds its POSTs unanswered, and reads outcomes as before", async () => {
    const servers: Server[] = [];
    const listen = async (handler: (req: IncomingMessage, res: ServerResponse) => void) => {
      const server = createServer((req, res) => {
        req.resume();
        req.on('end', () => handler(req, res));
      });
      servers.push(server);
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook?x=1`);
    };
    const stuck = await listen(() => {}); // never answers
    const targets: Array<string | undefined> = [];
    const answering = await listen((req, res) => {
      targets.push(req.url);
      const id = String(req.headers['webhook-id']);
      if (id === 'redirect') res.writeHead(307, { location: 'http://127.0.0.1/' }).end();
      else if (id === 'error') res.writeHead(503).end('later');
      else res.writeHead(200).end(`got ${req.url}`);
    });
    const limits = { timeoutMs: 3_600_000, sendWithinMs: 3_600_000 };
    const held = ['a', 'b', 'c'].map((id) => send(stuck, LOOPBACK, { 'webhook-id': id }, '{}', limits));
    try {
      const results = await Promise.all(['ok', 'redirect', 'error', 'ok'].map((id) => send(answering, LOOPBACK, { 'webhook-id': id }, '{}', limits)));
      assert.deepEqual(
        results.map(({ httpStatus, error }) => ({ httpStatus, error })),
        [
          { httpStatus: 200, error: null },
          { httpStatus: 307, error: 'redirect (HTTP 307) not followed' },
          { httpStatus: 503, error: 'HTTP 503' },
          { httpStatus: 200, error: null },
        ],
      );
      assert.deepEqual(targets, ['/hook?x=1', '/hook?x=1', '/hook?x=1', '/hook?x=1'], "the URL's path and query");
    } finally {
      // Closed, the stuck receiver ends its connection and refuses the POSTs queued behind.
      await Promise.all(
        servers.map((server) => {
          const closed = new Promise<void>((r) => server.close(() => r()));
          server.closeAllConnections();
          return closed;
        }),
      );
    }
    for (const result of await Promise.all(held)) assert.equal(result.httpStatus, null);
  });
});
