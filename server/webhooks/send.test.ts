import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
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
});
