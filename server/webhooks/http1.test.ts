import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createServer as createTlsServer } from 'node:tls';
import { selfSignedCertificate } from '../../test/helpers/tls.ts';
import { type Exchange, Http1Origin, MAX_HEAD_BYTES, MAX_IN_FLIGHT } from './http1.ts';
import { MAX_ANSWER_BYTES } from './model.ts';

const LOOPBACK = { address: '127.0.0.1', family: 4 };
const LIMITS = { timeoutMs: 10_000, sendWithinMs: 10_000 };
const MAX_ANSWER = 64 * 1024;
const NO_CONTENT = 'HTTP/1.1 204 No Content\r\n\r\n';
const delivered = (status: number): Exchange => ({ status, error: null, durationMs: 0 });
/** An exchange without its duration, which only the clock decides. */
const outcome = (e: Exchange): Exchange => ({ ...e, durationMs: 0 });

/** A receiver's connection: the `webhook-id`s of the requests read on it, in order. */
interface RawConnection {
  socket: Socket;
  ids: string[];
}

/** A raw TCP receiver on loopback: it splits what it reads into requests (head, Content-Length
 *  body) and calls `onRequest` for each; what to answer, and when, is the test's. */
async function rawReceiver(onRequest: (connection: RawConnection, id: string) => void) {
  const connections: RawConnection[] = [];
  const server: Server = createServer((socket) => {
    socket.setNoDelay(true);
    const connection: RawConnection = { socket, ids: [] };
    connections.push(connection);
    let buffered = '';
    socket.on('error', () => {});
    socket.on('data', (chunk) => {
      buffered += chunk.toString('latin1');
      for (;;) {
        const headEnd = buffered.indexOf('\r\n\r\n');
        if (headEnd < 0) return;
        const head = buffered.slice(0, headEnd);
        const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)![1]);
        if (buffered.length < headEnd + 4 + length) return;
        buffered = buffered.slice(headEnd + 4 + length);
        const id = /\r\nwebhook-id: ([^\r]*)/i.exec(head)![1]!;
        connection.ids.push(id);
        onRequest(connection, id);
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    connections,
    origin: (maxAnswerBytes = MAX_ANSWER) => new Http1Origin(new URL(`http://127.0.0.1:${port}/hook`), LOOPBACK, maxAnswerBytes),
    close: () =>
      new Promise<void>((r) => {
        for (const c of connections) c.socket.destroy();
        server.close(() => r());
      }),
  };
}

const post = (origin: Http1Origin, id: string, limits = LIMITS) => origin.post('/hook', { 'webhook-id': id }, '{"n":1}', limits);
const ids = (n: number, prefix = 'e') => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('Http1Origin', () => {
  it('sends the first request on a new connection alone, then pipelines up to MAX_IN_FLIGHT requests and reads their answers in order', async () => {
    // Answers nothing until MAX_IN_FLIGHT requests are waiting (or the first, alone): without
    // pipelining the origin would wait on the receiver for ever.
    const waiting: RawConnection[] = [];
    let outstanding = 0;
    let mostOutstanding = 0;
    const receiver = await rawReceiver((connection, id) => {
      outstanding++;
      mostOutstanding = Math.max(mostOutstanding, outstanding);
      if (id === 'first') {
        outstanding--;
        return void connection.socket.write(NO_CONTENT);
      }
      waiting.push(connection);
      if (waiting.length === MAX_IN_FLIGHT) {
        const statuses = waiting.splice(0).map((_, i) => `HTTP/1.1 ${220 + i} OK\r\ncontent-length: 2\r\n\r\nok`);
        outstanding -= MAX_IN_FLIGHT;
        connection.socket.write(statuses.join(''));
      }
    });
    const origin = receiver.origin();
    try {
      assert.deepEqual(outcome(await post(origin, 'first')), delivered(204));
      const batch = ids(2 * MAX_IN_FLIGHT);
      const results = await Promise.all(batch.map((id) => post(origin, id)));
      assert.deepEqual(
        results.map(outcome),
        batch.map((_, i) => delivered(220 + (i % MAX_IN_FLIGHT))),
      );
      assert.equal(mostOutstanding, MAX_IN_FLIGHT, 'never more than MAX_IN_FLIGHT written unanswered');
      assert.equal(receiver.connections.length, 1, 'all on one connection');
      assert.deepEqual(receiver.connections[0]!.ids, ['first', ...batch]);
    } finally {
      origin.close();
      await receiver.close();
    }
  });

  it('reads pipelined answers that arrive a byte at a time: an interim 1xx, Content-Length, chunked with extensions and trailers, 204, and a body-less 200', async () => {
    const answers = [
      'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 5\r\nX-A: b\r\n\r\nhello',
      'HTTP/1.1 201 Created\r\ntransfer-encoding: chunked\r\n\r\n3;name=value;x\r\nabc\r\n10\r\n0123456789abcdef\r\n0;last\r\nTrailer-One: 1\r\nTrailer-Two: 2\r\n\r\n',
      'HTTP/1.1 204 No Content\r\n\r\n',
      'HTTP/1.1 202 Accepted\nContent-Length: 0\n\n', // bare LF line ends (RFC 9112 §2.2)
      'HTTP/1.1 500 Internal Server Error\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nbad!\r\n0\r\n\r\n',
    ];
    const batch = ids(answers.length);
    const receiver = await rawReceiver(async (connection, id) => {
      if (id === 'first' || id === 'after') return void connection.socket.write(NO_CONTENT);
      if (connection.ids.length < 1 + answers.length) return;
      // Every byte of the answers its own write, a moment apart, so each is read apart.
      const bytes = Buffer.from(answers.join(''), 'latin1');
      for (let i = 0; i < bytes.length; i++) {
        connection.socket.write(bytes.subarray(i, i + 1));
        await sleep(1);
      }
    });
    const origin = receiver.origin();
    try {
      assert.deepEqual(outcome(await post(origin, 'first')), delivered(204));
      const results = await Promise.all(batch.map((id) => post(origin, id)));
      assert.deepEqual(results.map(outcome), [delivered(200), delivered(201), delivered(204), delivered(202), delivered(500)]);
      // The connection is still in step: the next request is answered on it.
      assert.deepEqual(outcome(await post(origin, 'after')), delivered(204));
      assert.equal(receiver.connections.length, 1);
    } finally {
      origin.close();
      await receiver.close();
    }
  });

  const notKept = [
    { answer: 'a body delimited by the connection closing', bytes: 'HTTP/1.1 200 OK\r\n\r\nno length, until the close', close: true },
    { answer: 'an HTTP/1.0 answer without keep-alive', bytes: 'HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n', close: false },
  ];
  for (const { answer, bytes, close } of notKept) {
    it(`reads ${answer}, and sends the next request on a new connection`, async () => {
      const receiver = await rawReceiver((connection) => (close ? connection.socket.end(bytes) : connection.socket.write(bytes)));
      const origin = receiver.origin();
      try {
        assert.deepEqual(outcome(await post(origin, 'a')), delivered(200));
        assert.deepEqual(outcome(await post(origin, 'b')), delivered(200));
        assert.deepEqual(
          receiver.connections.map((c) => c.ids),
          [['a'], ['b']],
        );
      } finally {
        origin.close();
        await receiver.close();
      }
    });
  }

  it('re-sends the requests behind a `Connection: close` answer on a new connection, all delivered, one at a time there', async () => {
    let outstandingOnSecond = 0;
    let mostOnSecond = 0;
    const receiver = await rawReceiver((connection, id) => {
      const first = connection === receiver.connections[0];
      if (id === 'first') return void connection.socket.write(NO_CONTENT);
      if (first) {
        if (connection.ids.length === 6) connection.socket.end(`${NO_CONTENT}HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n`);
        return;
      }
      outstandingOnSecond++;
      mostOnSecond = Math.max(mostOnSecond, outstandingOnSecond);
      setTimeout(() => {
        outstandingOnSecond--;
        connection.socket.write(NO_CONTENT);
      }, 5);
    });
    const origin = receiver.origin();
    try {
      assert.deepEqual(outcome(await post(origin, 'first')), delivered(204));
      const batch = ids(5);
      const results = await Promise.all(batch.map((id) => post(origin, id)));
      assert.deepEqual(
        results.map(outcome),
        batch.map(() => delivered(204)),
      );
      assert.deepEqual(
        receiver.connections.map((c) => c.ids),
        [['first', ...batch], batch.slice(2)],
      );
      // The endpoint closed a connection on requests written to it: no batches for a while.
      const more = ids(4, 'm');
      const after = await Promise.all(more.map((id) => post(origin, id)));
      assert.deepEqual(
        after.map(outcome),
        more.map(() => delivered(204)),
      );
      assert.equal(mostOnSecond, 1, 'one request at a time after the close');
    } finally {
      origin.close();
      await receiver.close();
    }
  });

  it('fails the request whose turn came when the connection is reset, and re-sends the ones behind it once', async () => {
    const receiver = await rawReceiver((connection, id) => {
      if (id === 'first') return void connection.socket.write(NO_CONTENT);
      if (connection === receiver.connections[0]) {
        // Two answered, then the connection reset, the answers read before it.
        if (connection.ids.length === 6) connection.socket.write(NO_CONTENT + NO_CONTENT, () => setTimeout(() => connection.socket.resetAndDestroy(), 50));
        return;
      }
      connection.socket.write(NO_CONTENT);
    });
    const origin = receiver.origin();
    try {
      assert.deepEqual(outcome(await post(origin, 'first')), delivered(204));
      const batch = ids(5);
      const results = await Promise.all(batch.map((id) => post(origin, id)));
      assert.deepEqual(results.slice(0, 2).map(outcome), [delivered(204), delivered(204)]);
      assert.equal(results[2]!.status, null);
      assert.match(results[2]!.error!, /ECONNRESET/);
      assert.deepEqual(results.slice(3).map(outcome), [delivered(204), delivered(204)]);
      assert.deepEqual(
        receiver.connections.slice(1).flatMap((c) => c.ids),
        ['e3', 'e4'],
        'the reset one is not sent again (it was read), the ones behind are',
      );
    } finally {
      origin.close();
      await receiver.close();
    }
  });

  it('fails a request left unanswered on a second connection too, having been re-sent once', async () => {
    // The requests named s… are never answered; after one, nothing more is on that connection.
    const stalled = new Set<RawConnection>();
    const receiver = await rawReceiver((connection, id) => {
      if (stalled.has(connection)) return;
      if (id.startsWith('s')) stalled.add(connection);
      else connection.socket.write(NO_CONTENT);
    });
    const origin = receiver.origin();
    try {
      assert.deepEqual(outcome(await post(origin, 'first')), delivered(204));
      const limits = { timeoutMs: 200, sendWithinMs: 10_000 };
      const results = await Promise.all(['s1', 'b', 's2', 'c'].map((id) => post(origin, id, limits)));
      assert.deepEqual(results.map(outcome), [
        { status: null, error: 'no answer within 200 ms', durationMs: 0 },
        delivered(204),
        { status: null, error: 'no answer within 200 ms', durationMs: 0 },
        { status: null, error: 'the connection ended: an answer before it did not come within 200 ms', durationMs: 0 },
      ]);
      assert.deepEqual(
        receiver.connections.map((c) => c.ids),
        [
          ['first', 's1', 'b', 's2', 'c'],
          ['b', 's2', 'c'],
        ],
        'c written twice, not a third time',
      );
    } finally {
      origin.close();
      await receiver.close();
    }
  });

  it('gives a request that gets no answer its own timeout; the ones pipelined behind it go again on a new connection', async () => {
    const receiver = await rawReceiver((connection, id) => {
      if (id === 'first') return void connection.socket.write(NO_CONTENT);
      if (id === 'slow') return; // never answered
      if (connection !== receiver.connections[0]) connection.socket.write(NO_CONTENT);
      // on the first connection the others wait behind the slow one
    });
    const origin = receiver.origin();
    try {
      assert.deepEqual(outcome(await post(origin, 'first')), delivered(204));
      const limits = { timeoutMs: 200, sendWithinMs: 10_000 };
      const results = await Promise.all(['slow', 'b', 'c'].map((id) => post(origin, id, limits)));
      assert.deepEqual(results[0], { ...results[0], status: null, error: 'no answer within 200 ms' });
      assert.ok(results[0]!.durationMs > 0, 'its turn came');
      assert.deepEqual(results.slice(1).map(outcome), [delivered(204), delivered(204)]);
      assert.deepEqual(
        receiver.connections.map((c) => c.ids),
        [
          ['first', 'slow', 'b', 'c'],
          ['b', 'c'],
        ],
      );
    } finally {
      origin.close();
      await receiver.close();
    }
  });

  it('leaves a request without an answer once it has waited sendWithinMs for its turn behind a slow one, and drops its answer when it comes', async () => {
    // Holds the answers to `slow` and `behind` until told, then sends them (226 for `behind`).
    let answerHeld!: () => void;
    const held = new Promise<void>((r) => (answerHeld = r));
    const receiver = await rawReceiver(async (connection, id) => {
      if (id === 'slow') return;
      if (id === 'behind') {
        await held;
        return void connection.socket.write(`${NO_CONTENT}HTTP/1.1 226 IM Used\r\ncontent-length: 0\r\n\r\n`);
      }
      connection.socket.write('HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n');
    });
    const origin = receiver.origin();
    try {
      assert.deepEqual(outcome(await post(origin, 'first')), delivered(200));
      const slow = post(origin, 'slow', { timeoutMs: 3_600_000, sendWithinMs: 3_600_000 });
      const behind = await post(origin, 'behind', { timeoutMs: 3_600_000, sendWithinMs: 50 });
      assert.deepEqual(behind, { status: null, error: 'no answer: its turn at the endpoint did not come within 50 ms', durationMs: 0 });
      assert.deepEqual(receiver.connections[0]!.ids, ['first', 'slow', 'behind'], 'written, pipelined behind');
      answerHeld();
      assert.deepEqual(outcome(await slow), delivered(204));
      // The answer to the one set aside is read and dropped: the next request gets its own.
      assert.deepEqual(outcome(await post(origin, 'next')), delivered(200));
      assert.equal(receiver.connections.length, 1);
    } finally {
      origin.close();
      await receiver.close();
    }
  });

  it(`fails a request whose answer's header section is over ${MAX_HEAD_BYTES} bytes, or is not HTTP at all, and goes on on a new connection`, async () => {
    const receiver = await rawReceiver((connection, id) => {
      if (id === 'big') connection.socket.write(`HTTP/1.1 200 OK\r\nx-big: ${'x'.repeat(MAX_HEAD_BYTES)}\r\n\r\n`);
      else if (id === 'garbage') connection.socket.write('SSH-2.0-OpenSSH_9.6\r\n\r\n');
      else connection.socket.write(NO_CONTENT);
    });
    const origin = receiver.origin();
    try {
      assert.deepEqual(outcome(await post(origin, 'big')), {
        status: null,
        error: `malformed answer: header section over ${MAX_HEAD_BYTES} bytes`,
        durationMs: 0,
      });
      assert.deepEqual(outcome(await post(origin, 'ok')), delivered(204));
      assert.deepEqual(outcome(await post(origin, 'garbage')), { status: null, error: 'malformed answer: not an HTTP/1.x status line', durationMs: 0 });
      assert.deepEqual(outcome(await post(origin, 'ok')), delivered(204));
      assert.equal(receiver.connections.length, 3);
    } finally {
      origin.close();
      await receiver.close();
    }
  });

  it('reads at most maxAnswerBytes of a 10 MiB answer, which is the outcome, and goes on on a new connection', async () => {
    const connections = new Set<unknown>();
    const server: HttpServer = createHttpServer((req, res) => {
      connections.add(req.socket);
      req.resume();
      req.on('end', () => {
        if (req.headers['webhook-id'] !== 'huge') return void res.writeHead(204).end();
        res.writeHead(500, { 'content-type': 'text/plain' });
        const chunk = Buffer.alloc(1024 * 1024, 'x');
        for (let i = 0; i < 10; i++) res.write(chunk);
        res.end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const origin = new Http1Origin(new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`), LOOPBACK, MAX_ANSWER);
    try {
      assert.deepEqual(outcome(await post(origin, 'huge')), delivered(500));
      assert.deepEqual(outcome(await post(origin, 'next')), delivered(204));
      assert.equal(connections.size, 2);
    } finally {
      origin.close();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it('reads at most MAX_ANSWER_BYTES, 64 KiB (docs/events.md), of a receiver sending 10 MiB: it closes the connection within a few pieces of it', async () => {
    assert.equal(MAX_ANSWER_BYTES, 64 * 1024);
    // The body goes in 4 KiB pieces 2 ms apart, so what the receiver wrote before it saw the close
    // is what the client read and little more (no 10 MiB lands in the kernel's buffers at once).
    const PIECE = 4096;
    const TEN_MIB = 10 * 1024 * 1024;
    let written = 0;
    let answered: Promise<Exchange> | undefined;
    const closed = new Promise<void>((resolve) => {
      const server: Server = createServer((socket) => {
        socket.on('error', () => {});
        socket.once('data', async () => {
          socket.write(`HTTP/1.1 500 Internal Server Error\r\ncontent-length: ${TEN_MIB}\r\n\r\n`);
          while (written < TEN_MIB && !socket.destroyed && socket.writable) {
            socket.write(Buffer.alloc(PIECE, 'x'));
            written += PIECE;
            await sleep(2);
          }
        });
        socket.on('close', () => {
          server.close();
          resolve();
        });
      });
      server.listen(0, '127.0.0.1', () => {
        const origin = new Http1Origin(new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`), LOOPBACK, MAX_ANSWER_BYTES);
        answered = post(origin, 'huge').finally(() => origin.close());
      });
    });
    await closed;
    assert.deepEqual(outcome(await answered!), delivered(500));
    assert.ok(written >= MAX_ANSWER_BYTES, `${written} bytes written: the answer was read to the cap`);
    assert.ok(written <= MAX_ANSWER_BYTES + 16 * PIECE, `${written} bytes written before the client closed, over ${MAX_ANSWER_BYTES}`);
  });

  it("over TLS sends the URL's host as SNI and refuses a certificate it cannot verify", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'http1-tls-'));
    try {
      const { key, cert } = selfSignedCertificate(dir, 'hooks.example');
      const names: string[] = [];
      const server = createTlsServer(
        {
          key,
          cert,
          SNICallback: (name, done) => {
            names.push(name);
            done(null);
          },
        },
        (socket) => socket.end(NO_CONTENT),
      );
      server.on('tlsClientError', () => {});
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      const origin = new Http1Origin(new URL(`https://hooks.example:${(server.address() as AddressInfo).port}/hook`), LOOPBACK, MAX_ANSWER);
      try {
        const result = await post(origin, 'a');
        assert.equal(result.status, null);
        assert.match(result.error!, /self[- ]signed certificate/);
      } finally {
        origin.close();
        await new Promise<void>((r) => server.close(() => r()));
      }
      assert.deepEqual(names, ['hooks.example'], "the URL's host in the handshake, not the address");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
