import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { freePort } from '../../test/helpers/free-port.ts';
import { selfSignedCertificate } from '../../test/helpers/tls.ts';
import { HttpBodyTooLarge, HttpTimeout, httpRequest } from './http-request.ts';

const listen = async (server: Server): Promise<number> => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
};

describe('an outbound HTTP request (a JWKS, an Apple endpoint)', () => {
  const received: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[] = [];
  /** Bytes the huge route managed to write before the client went away. */
  let hugeSent = 0;
  const routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
    '/json': (_q, s) => void s.writeHead(200, { 'content-type': 'application/json' }).end('{"keys":[]}'),
    '/echo': (_q, s) => void s.writeHead(201).end(received.at(-1)!.body),
    '/redirect': (_q, s) => void s.writeHead(302, { location: '/json' }).end(),
    '/error': (_q, s) => void s.writeHead(500).end('x'.repeat(4096)),
    '/declared': (_q, s) => void s.writeHead(200, { 'content-length': String(10 * 1024 * 1024) }).write('{'),
    '/hang': () => {},
    // A server closing a kept-alive connection just as the next request arrives on it.
    '/first-only': (q, s) => (carried.get(q.socket) === 1 ? void s.end('ok') : void q.socket.destroy()),
    '/stall': (_q, s) => void s.writeHead(200).write('{"keys":['),
    '/cut': (q, s) => {
      s.writeHead(200, { 'content-length': '100' }).write('{"keys":[');
      setTimeout(() => q.socket.destroy(), 20);
    },
    '/huge': (_q, s) => {
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      s.writeHead(200);
      const pump = () => {
        while (!s.destroyed && hugeSent < 50 * 1024 * 1024) {
          hugeSent += chunk.length;
          if (!s.write(chunk)) return void s.once('drain', pump);
        }
        s.end();
      };
      s.on('error', () => {});
      pump();
    },
  };
  /** Requests to /first-only each connection has carried: the route answers a connection's first. */
  const carried = new WeakMap<object, number>();
  const server = createServer((q, s) => {
    if (q.url === '/first-only') carried.set(q.socket, (carried.get(q.socket) ?? 0) + 1);
    let body = '';
    q.setEncoding('utf8').on('data', (d: string) => (body += d));
    q.on('end', () => {
      received.push({ method: q.method!, url: q.url!, headers: q.headers, body });
      routes[q.url!]!(q, s);
    });
  });
  let base = '';
  before(async () => {
    base = `http://127.0.0.1:${await listen(server)}`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  const limits = { timeoutMs: 2_000, maxBytes: 64 * 1024 };

  it('GETs with the headers given and hands back the status and the body as text', async () => {
    const a = await httpRequest(`${base}/json`, { ...limits, headers: { accept: 'application/json' } });
    assert.deepEqual(a, { status: 200, text: '{"keys":[]}' });
    assert.equal(received.at(-1)!.method, 'GET');
    assert.equal(received.at(-1)!.headers.accept, 'application/json');
  });

  it('POSTs a body with its length', async () => {
    const body = 'client_id=app&token=t%C3%A9';
    const a = await httpRequest(`${base}/echo`, { ...limits, method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
    assert.deepEqual(a, { status: 201, text: body });
    assert.equal(received.at(-1)!.method, 'POST');
    assert.equal(received.at(-1)!.headers['content-length'], String(Buffer.byteLength(body)));
  });

  it('does not follow a redirect: the 3xx is the answer', async () => {
    const before = received.length;
    const a = await httpRequest(`${base}/redirect`, limits);
    assert.equal(a.status, 302);
    assert.equal(received.length, before + 1, 'the redirect target was not requested');
  });

  it('leaves unread the body of a status the caller does not want, and the connection serves the next request', async () => {
    const a = await httpRequest(`${base}/error`, { ...limits, maxBytes: 16, readBody: (s) => s === 200 });
    assert.deepEqual(a, { status: 500, text: '' });
    assert.equal((await httpRequest(`${base}/json`, limits)).status, 200);
  });

  it('refuses a declared content-length over the cap before reading the body', async () => {
    await assert.rejects(httpRequest(`${base}/declared`, limits), (e) => e instanceof HttpBodyTooLarge);
  });

  it('stops reading an undeclared body once it passes the cap', async () => {
    await assert.rejects(httpRequest(`${base}/huge`, limits), (e) => e instanceof HttpBodyTooLarge);
    // Loopback socket buffers take a few MiB before back-pressure stops the writer.
    await new Promise((r) => setTimeout(r, 100));
    assert.ok(hugeSent < 16 * 1024 * 1024, `the server wrote ${hugeSent} bytes of 50 MiB`);
  });

  it('times out a server that never answers, and one that stops in the middle of the body', async () => {
    for (const path of ['/hang', '/stall']) {
      await assert.rejects(httpRequest(`${base}${path}`, { ...limits, timeoutMs: 200 }), (e) => e instanceof HttpTimeout && e.name === 'TimeoutError');
    }
  });

  it('sends a GET once more on a new connection when a kept-alive one was closed under it; a POST is not repeated', async () => {
    assert.equal((await httpRequest(`${base}/first-only`, limits)).text, 'ok');
    const before = received.length;
    // The same kept-alive connection carries the next request, and the server closes it.
    assert.deepEqual(await httpRequest(`${base}/first-only`, limits), { status: 200, text: 'ok' });
    assert.equal(received.length, before + 2, 'the request on the closed connection, then once more on a new one');

    assert.equal((await httpRequest(`${base}/first-only`, { ...limits, method: 'POST', body: 'code=c' })).text, 'ok');
    const posted = received.length;
    await assert.rejects(
      httpRequest(`${base}/first-only`, { ...limits, method: 'POST', body: 'code=c' }),
      (e) => (e as { code?: string }).code === 'ECONNRESET',
    );
    assert.equal(received.length, posted + 1, 'the POST was not sent again');
  });

  it('fails when the connection ends before the body does', async () => {
    await assert.rejects(httpRequest(`${base}/cut`, limits), (e) => e instanceof Error && !(e instanceof HttpTimeout));
  });

  it('keeps the system error of a refused connection', async () => {
    await assert.rejects(httpRequest(`http://127.0.0.1:${await freePort()}/`, limits), (e) => (e as { code?: string }).code === 'ECONNREFUSED');
  });

  it('refuses a URL that is not http or https', async () => {
    await assert.rejects(httpRequest('ftp://127.0.0.1/keys', limits), /not an http\(s\) URL/);
    await assert.rejects(httpRequest('not a url', limits), TypeError);
  });

  it("checks an https server's certificate: a self-signed one is refused", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'http-request-'));
    try {
      const { key, cert } = selfSignedCertificate(dir, '127.0.0.1', 'IP:127.0.0.1');
      const tls = createTlsServer({ key, cert }, (_q, s) => void s.end('{"keys":[]}'));
      const port = await listen(tls);
      try {
        await assert.rejects(httpRequest(`https://127.0.0.1:${port}/keys`, limits), (e) => (e as { code?: string }).code === 'DEPTH_ZERO_SELF_SIGNED_CERT');
      } finally {
        tls.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
