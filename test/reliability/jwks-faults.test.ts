// Upstream faults: the provider's JWKS hangs, answers a huge body (declared or streamed),
// redirects, garbles or sends headers and then stalls. Every case is a quick 503 `Upstream service
// unavailable` (never 401, never a hang, never a memory balloon, never a followed redirect), and
// once the JWKS works again logins work — nothing half-read was cached.
//
// A JWKS cache backs off 5 s after a failed fetch and refetches a working set at most once per
// 30 s, so each cache can show one fault and its recovery per run: three real servers (apple and
// google caches each = six faults) run side by side, all with `--jwks-timeout-ms 500`.
// (Keys kept through an outage, kid refetch limits and rotation are in test/auth/jwks.test.ts.)

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { APPLE_AUD, GOOGLE_AUD, GOOGLE_ISSUER, REALM } from '../auth/fixture.ts';
import { api, type HttpResult, http } from '../helpers/http.ts';
import { startIdp, type TestIdp } from '../helpers/idp.ts';
import { type SpawnedServer, spawnServer } from '../helpers/server.ts';

type Fault = 'ok' | 'hang' | 'huge_streamed' | 'huge_declared' | 'redirect' | 'garbage' | 'stall_body';
const MiB = 1024 * 1024;
const HUGE = 50 * MiB;

interface Slot {
  server: number;
  provider: 'apple' | 'google';
  fault: Fault;
  /** Bytes the stand-in managed to write for a huge body. */
  sent: number;
}

/** Writes `total` bytes of a JSON-ish body in 64 KiB chunks, honouring back-pressure, and stops
 *  as soon as the reader goes away. */
function streamHuge(res: ServerResponse, slot: Slot, declared: boolean): void {
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  const head = Buffer.from('{"keys":[');
  const tail = Buffer.from(']}');
  const n = Math.ceil(HUGE / chunk.length);
  res.writeHead(200, { 'content-type': 'application/json', ...(declared ? { 'content-length': String(head.length + n * chunk.length + tail.length) } : {}) });
  res.write(head);
  let i = 0;
  const pump = () => {
    while (i < n) {
      if (res.destroyed) return;
      i++;
      slot.sent += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    res.end(tail);
  };
  res.on('error', () => {});
  pump();
}

function vmHwmMiB(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

describe('upstream JWKS faults', () => {
  let apple: TestIdp;
  let google: TestIdp;
  const servers: SpawnedServer[] = [];
  // Server 0: hang, garbage · 1: huge streamed, redirect · 2: huge declared, headers-then-stall.
  const slots: Slot[] = [
    { server: 0, provider: 'apple', fault: 'hang', sent: 0 },
    { server: 0, provider: 'google', fault: 'garbage', sent: 0 },
    { server: 1, provider: 'apple', fault: 'huge_streamed', sent: 0 },
    { server: 1, provider: 'google', fault: 'redirect', sent: 0 },
    { server: 2, provider: 'apple', fault: 'huge_declared', sent: 0 },
    { server: 2, provider: 'google', fault: 'stall_body', sent: 0 },
  ];
  const slot = (server: number, provider: string) => slots.find((s) => s.server === server && s.provider === provider)!;
  const idpOf = (provider: string) => (provider === 'apple' ? apple : google);
  let hwmBefore: number[] = [];
  let faultedAt = 0;

  const login = async (s: Slot): Promise<HttpResult> => {
    const idp = idpOf(s.provider);
    const identityToken = await idp.token(s.provider === 'google' ? { email_verified: true } : {});
    return http(servers[s.server]!.http, 'POST', `/api/oauth/${REALM}/${s.provider}/native-login`, { body: { identityToken, clientId: 'app' } });
  };

  before(async () => {
    apple = await startIdp({ audience: APPLE_AUD });
    google = await startIdp({ audience: GOOGLE_AUD, issuer: GOOGLE_ISSUER });
    for (const s of slots) {
      const idp = idpOf(s.provider);
      idp.route('GET', `/s${s.server}/jwks`, (_req, res) => {
        switch (s.fault) {
          case 'ok':
            return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: idp.keys.map((k) => k.publicJwk) }));
          case 'hang':
            return; // never answers
          case 'garbage':
            return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"keys":[{"kty":"RSA","kid":');
          case 'redirect':
            // To a JWKS that would verify the token: following it would log the user in.
            return void res.writeHead(302, { location: `${idp.url}/keys` }).end();
          case 'stall_body':
            res.writeHead(200, { 'content-type': 'application/json' });
            return void res.write('{"keys":['); // …and nothing more
          case 'huge_streamed':
            return streamHuge(res, s, false);
          case 'huge_declared':
            return streamHuge(res, s, true);
        }
      });
    }
    const started = await Promise.all(
      [0, 1, 2].map((i) =>
        spawnServer({
          args: [
            '--apple-jwks-url',
            `${apple.url}/s${i}/jwks`,
            '--apple-issuer',
            apple.issuer,
            '--google-jwks-url',
            `${google.url}/s${i}/jwks`,
            '--google-issuer',
            GOOGLE_ISSUER,
            '--login-rate-limit',
            '0',
            '--jwks-timeout-ms',
            '500',
          ],
        }),
      ),
    );
    servers.push(...started);
    await Promise.all(
      servers.map(async (srv) => {
        const admin = api(srv.http, srv.adminKey);
        for (const r of [
          await admin.post('/api/admin/realms', { id: REALM, name: REALM }),
          await admin.put(`/api/admin/realms/${REALM}/providers/apple`, { clientId: APPLE_AUD, enabled: true }),
          await admin.put(`/api/admin/realms/${REALM}/providers/google`, { clientId: GOOGLE_AUD, enabled: true }),
          await admin.post(`/api/admin/realms/${REALM}/clients`, { clientId: 'app', name: 'App', type: 'first_party', redirectUris: [] }),
        ]) {
          if (r.status !== 200) throw new Error(`setup: ${r.status} ${r.text}`);
        }
      }),
    );
    hwmBefore = servers.map((s) => vmHwmMiB(s.proc.pid!));
  });

  after(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await apple?.close();
    await google?.close();
  });

  it('answers every fault with a 503 Upstream service unavailable while the fault lasts', async () => {
    // The faults that never finish an answer (hang, stall_body) last until the next test: the 503
    // can only come from the fetch timeout or the size cap, never from waiting the fault out.
    const results = await Promise.all(
      slots.map(async (s) => {
        // Several logins at once during the fault: they share one fetch and all get 503.
        const rs = await Promise.all([login(s), login(s), login(s)]);
        return { s, rs };
      }),
    );
    faultedAt = Date.now();
    for (const { s, rs } of results) {
      for (const r of rs) {
        assert.equal(r.status, 503, `${s.fault}: ${r.text}`);
        assert.equal(r.body.error, 'service_unavailable', s.fault);
        assert.equal(r.body.message, 'Upstream service unavailable', s.fault);
        assert.equal(r.body.status, 503);
        assert.equal(typeof r.body.requestId, 'string');
      }
    }
  });

  it('never follows a redirect from the JWKS URL', () => {
    assert.equal(google.jwksHits(), 0, 'the redirect target was not fetched');
  });

  it('stops reading a huge JWKS at the size cap: the server does not buffer it', () => {
    for (const s of slots.filter((x) => x.fault.startsWith('huge'))) {
      // Loopback socket buffers take a few MiB before back-pressure stops the writer.
      assert.ok(s.sent < 16 * MiB, `${s.fault}: the stand-in wrote ${(s.sent / MiB).toFixed(1)} MiB of 50`);
      // Buffering the 50 MiB would raise the peak by more than that. The first fetch and the logins
      // around it raised it by 0.3–3.4 MiB (measured), and may by up to 16 more where V8's young
      // generation grows meanwhile; it was ~30 when node's fetch compiled its WebAssembly HTTP
      // parser at the first fetch (lib/http-request.ts).
      const grew = vmHwmMiB(servers[s.server]!.proc.pid!) - hwmBefore[s.server]!;
      assert.ok(grew < 24, `${s.fault}: peak RSS grew by ${grew.toFixed(1)} MiB`);
    }
    // A declared content-length over the cap is refused before the body is read.
    assert.ok(slot(2, 'apple').sent < 16 * MiB);
  });

  it('logs the user in again once the JWKS works (nothing from the fault was cached)', async () => {
    const labels = new Map(slots.map((s) => [s, s.fault]));
    for (const s of slots) s.fault = 'ok';
    // Past the 5 s back-off after a failed fetch.
    const wait = 5_200 - (Date.now() - faultedAt);
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const rs = await Promise.all(slots.map(async (s) => ({ s, r: await login(s) })));
    for (const { s, r } of rs) {
      assert.equal(r.status, 200, `after ${labels.get(s)}: ${r.text}`);
      assert.equal(r.body.tokenType, 'Bearer');
    }
    for (const srv of servers) assert.doesNotMatch(srv.logs(), /internal_error/);
  });
});
