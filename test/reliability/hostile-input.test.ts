// Property-based fuzzing of both transports. Whatever arrives — random paths, methods,
// headers, JSON of the wrong shape, huge numbers, deep nesting, invalid UTF-8, random protobuf
// bytes — gatehouse never crashes, never answers 500, and always answers with the contract's body.

import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import * as grpc from '@grpc/grpc-js';
import fc from 'fast-check';
import { loadProtos } from '../../server/rpc/proto.ts';
import { api } from '../helpers/http.ts';
import { type SpawnedServer, spawnServer } from '../helpers/server.ts';

describe('fuzzed requests on both transports', () => {
  let srv: SpawnedServer;
  before(async () => {
    srv = await spawnServer();
    await api(srv.http, srv.adminKey).post('/api/admin/realms', { id: 'acme', name: 'Acme' });
  });
  after(async () => {
    // The server is still healthy after everything it was sent.
    const res = await api(srv.http, srv.adminKey).get('/api/admin/realms');
    assert.equal(res.status, 200);
    assert.ok(
      !/"level":"error"/.test(srv.logs()),
      'no request crashed a handler:\n' +
        srv
          .logs()
          .split('\n')
          .filter((l) => l.includes('"error"'))
          .slice(0, 5)
          .join('\n'),
    );
    await srv.stop();
  });

  const routes = loadProtos().methods.flatMap((m) => m.http.map((r) => ({ method: r.method, pattern: r.pattern })));

  interface RawResponse {
    status: number;
    headers: Record<string, string | string[] | undefined>;
    body: Buffer;
  }

  /** A raw request (node:http, so bodies may be any bytes and headers anything legal). */
  function send(method: string, path: string, headers: Record<string, string>, body: Buffer | null): Promise<RawResponse> {
    const url = new URL(srv.http);
    // node:http frames OPTIONS/DELETE bodies only with an explicit length
    if (body) headers = { ...headers, 'content-length': String(body.length) };
    return new Promise((resolve, reject) => {
      const req = request({ host: url.hostname, port: url.port, method, path, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      });
      req.on('error', (e) => reject(new Error(`${method} ${path}: ${(e as Error).message}`)));
      if (body) req.end(body);
      else req.end();
    });
  }

  function assertContractAnswer(res: RawResponse, what: string): void {
    assert.notEqual(res.status, 500, `${what} → 500 ${res.body.toString()}`);
    assert.ok(res.status < 500 || res.status === 503, `${what} → ${res.status}`);
    if (res.status >= 400) {
      const body = JSON.parse(res.body.toString('utf8'));
      assert.equal(typeof body.error, 'string', what);
      assert.equal(body.status, res.status, what);
      assert.equal(typeof body.message, 'string', what);
      assert.equal(typeof body.requestId, 'string', what);
      if (res.status === 401) assert.match(String(res.headers['www-authenticate']), /^(Bearer|Basic) realm="gatehouse"/, what);
    } else if (String(res.headers['content-type']).startsWith('application/json')) {
      JSON.parse(res.body.toString('utf8'));
    }
  }

  const segment = fc.oneof(
    fc.constantFrom('acme', 'nope', 'apple', 'google', '..', '%2F', '%00', '%E0%A4%A', '%C3%BC', '%7Bx%7D', 'a'.repeat(300)),
    fc.string({ minLength: 1, maxLength: 12 }).map(encodeURIComponent),
  );

  const pathArb = fc.oneof(
    // a declared route with its variables filled by anything
    fc.tuple(fc.constantFrom(...routes), fc.array(segment, { minLength: 4, maxLength: 4 })).map(([r, fill]) => {
      let i = 0;
      return r.pattern.replace(/\{[a-z_]+\}/g, () => fill[i++ % fill.length]!);
    }),
    // anything at all
    fc.array(segment, { minLength: 0, maxLength: 8 }).map((s) => '/' + s.join('/')),
  );

  const jsonValue = fc.oneof(
    fc.jsonValue({ maxDepth: 4 }),
    fc.dictionary(
      fc.constantFrom(
        'id',
        'name',
        'clientId',
        'type',
        'redirectUris',
        'enabled',
        'amount',
        'userId',
        'identityToken',
        'updates',
        'quotaWindows',
        'realm',
        'permissions',
      ),
      fc.jsonValue({ maxDepth: 3 }),
    ),
    fc.constantFrom(1e308, -0, 2 ** 64, Number.MAX_SAFE_INTEGER + 2, '\u0000', '\ud800'),
  );

  const bodyArb = fc.oneof(
    jsonValue.map((v) => Buffer.from(JSON.stringify(v) ?? 'null')),
    fc.uint8Array({ maxLength: 200 }).map((a) => Buffer.from(a)), // invalid UTF-8, binary junk
    fc.integer({ min: 1000, max: 30_000 }).map((n) => Buffer.from('['.repeat(n) + ']'.repeat(n))), // deep nesting
    fc.integer({ min: 1000, max: 20_000 }).map((n) => Buffer.from('{"a":'.repeat(n) + '1' + '}'.repeat(n))),
    fc.constant(Buffer.from('{"id": 123456789012345678901234567890, "name": "x"}')),
    fc.constant(Buffer.from('{"id": "a", "id": "b", "name": "dup"}')),
    fc.constant(null),
  );

  const headersArb = fc.record(
    {
      'content-type': fc.constantFrom(
        'application/json',
        'application/x-www-form-urlencoded',
        'text/plain',
        'application/json; charset=latin1',
        'multipart/form-data; boundary=x',
        '',
      ),
      authorization: fc.oneof(fc.constant('Bearer KEY'), fc.constantFrom('Bearer', 'Basic abc', 'Bearer ghk_x', 'Bearer ' + 'x'.repeat(1000))),
      'x-request-id': fc.constantFrom('ok-id', '../../etc', 'x'.repeat(100)),
      'x-api-key': fc.constantFrom('', 'ghk_nope'),
    },
    { requiredKeys: [] },
  );

  describe('hostile input', () => {
    it('answers every random HTTP request with the contract body and never a 500', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'),
          pathArb,
          headersArb,
          bodyArb,
          async (method, path, headers, body) => {
            const h: Record<string, string> = {};
            for (const [k, v] of Object.entries(headers)) if (v) h[k] = v === 'Bearer KEY' ? `Bearer ${srv.adminKey}` : v;
            const res = await send(method, path, h, method === 'GET' || method === 'HEAD' ? null : body);
            if (method === 'HEAD') {
              assert.notEqual(res.status, 500);
              return;
            }
            assertContractAnswer(res, `${method} ${path} ${JSON.stringify(h)} ${body?.subarray(0, 80).toString()}`);
          },
        ),
        { numRuns: 400 },
      );
    });

    it('answers 413 before reading an oversized body, even one that lies about its length', async () => {
      const res = await send(
        'POST',
        '/api/admin/realms',
        { 'content-type': 'application/json', authorization: `Bearer ${srv.adminKey}` },
        Buffer.alloc(200_000, 0x20),
      );
      assert.equal(res.status, 413);
      assertContractAnswer(res, 'oversized');
    });

    it('answers random protobuf bytes on every gRPC method with a status, never INTERNAL', async () => {
      const client = new grpc.Client(srv.grpc, grpc.credentials.createInsecure());
      const methods = loadProtos().methods;
      try {
        await fc.assert(
          fc.asyncProperty(fc.constantFrom(...methods), fc.uint8Array({ maxLength: 300 }), fc.boolean(), async (m, bytes, withKey) => {
            const md = new grpc.Metadata();
            if (withKey) md.set('authorization', `Bearer ${srv.adminKey}`);
            const code = await new Promise<number>((resolve) =>
              client.makeUnaryRequest(
                m.path,
                (b: Buffer) => b,
                (b: Buffer) => b,
                Buffer.from(bytes),
                md,
                (err) => resolve(err ? err.code : 0),
              ),
            );
            assert.notEqual(code, grpc.status.INTERNAL, `${m.path} with ${Buffer.from(bytes).toString('hex')}`);
            assert.notEqual(code, grpc.status.UNKNOWN, m.path);
          }),
          { numRuns: 300 },
        );
      } finally {
        client.close();
      }
    });
  });
});
