// The CLI drives a real server as a child process: bootstrap key without a server,
// realm/client/provider commands, --json output, errors on stderr with the server's code, exit codes.

import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readdirSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { type InProcessServer, startInProcess, tempDir } from '../helpers/server.ts';

describe('the CLI driving a real server', () => {
  let srv: InProcessServer;
  let env: Record<string, string>;
  before(async () => {
    srv = await startInProcess();
    env = { GATEHOUSE_SERVER: srv.grpc, GATEHOUSE_API_KEY: srv.adminKey };
  });
  after(() => srv.stop());

  describe('gatehouse CLI against a running server', () => {
    it('bootstraps a key straight into a database file, with no server', async () => {
      const db = join(tempDir(), 'boot.db');
      const res = await runCli(['keys', 'create', '--db', db, '--realm', '*', '--permission', '*', '--json']);
      assert.equal(res.code, 0, res.stderr);
      const out = res.json();
      assert.match(out.id, /^key_/);
      assert.match(out.key, /^ghk_/);
      assert.equal(out.realm, '*');
      assert.deepEqual(out.permissions, ['*']);
    });

    it('creates and lists realms, clients and providers, as text and as JSON', async () => {
      let r = await runCli(['realm', 'create', 'cli', '--name', 'CLI realm', '--json'], { env });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.json().id, 'cli');
      r = await runCli(['--realm', 'cli', 'client', 'create', 'ios', '--name', 'iOS', '--type', 'first_party', '--ip-binding', 'exact'], { env });
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /ipBinding:\s+exact/);
      r = await runCli(['client', 'list', '--json'], { env: { ...env, GATEHOUSE_REALM: 'cli' } });
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(
        r.json().clients.map((c: { clientId: string }) => c.clientId),
        ['ios'],
      );
      r = await runCli(['client', 'update', 'ios', '--enabled', 'false', '--realm', 'cli', '--json'], { env });
      assert.equal(r.json().enabled, false);
      r = await runCli(
        ['provider', 'set', 'apple', '--client-id', 'com.cli.app', '--client-secret', 'topsecret', '--web-client-id', 'com.cli.web', '--realm', 'cli'],
        { env },
      );
      assert.equal(r.code, 0, r.stderr);
      assert.ok(!r.stdout.includes('topsecret'));
      r = await runCli(['provider', 'get', 'apple', '--realm', 'cli', '--json'], { env });
      assert.equal(r.json().hasClientSecret, true);
      assert.equal(r.json().webClientId, 'com.cli.web');
      assert.ok(!r.stdout.includes('topsecret'));
      r = await runCli(['realm', 'list'], { env });
      assert.match(r.stdout, /^ID\s+NAME\s+CREATED/m);
      assert.match(r.stdout, /cli\s+CLI realm/);
    });

    it('reports a server error on stderr with its code and exits 1, leaving stdout empty', async () => {
      const r = await runCli(['realm', 'get', 'missing'], { env });
      assert.equal(r.code, 1);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, /not_found/);
      const j = await runCli(['realm', 'get', 'missing', '--json'], { env });
      assert.equal(j.code, 1);
      assert.equal(JSON.parse(j.stderr).error, 'not_found');
      const denied = await runCli(['realm', 'list'], { env: { ...env, GATEHOUSE_API_KEY: 'ghk_wrong' } });
      assert.equal(denied.code, 1);
      assert.match(denied.stderr, /unauthorized/);
    });

    it('exits 2 on a usage error and 1 with a hint when no server answers', async () => {
      const usage = await runCli(['client', 'create', 'x'], { env });
      assert.equal(usage.code, 2);
      assert.match(usage.stderr, /required option/);
      const noRealm = await runCli(['client', 'list'], { env });
      assert.equal(noRealm.code, 2);
      assert.match(noRealm.stderr, /--realm/);
      const down = await runCli(['realm', 'list', '--server', '127.0.0.1:1'], { env });
      assert.equal(down.code, 1);
      assert.match(down.stderr, /cannot reach the server at 127\.0\.0\.1:1/);
    });

    it('answers --help from what it knows, reaching for no server and no database', async () => {
      // A listener that counts who connects, standing where the CLI's server would be.
      let connections = 0;
      const listener = createServer((socket) => {
        connections++;
        socket.destroy();
      }).listen(0, '127.0.0.1');
      await once(listener, 'listening');
      try {
        const dir = tempDir();
        const { port } = listener.address() as AddressInfo;
        const r = await runCli(['--help'], {
          env: { GATEHOUSE_SERVER: `127.0.0.1:${port}`, GATEHOUSE_API_KEY: 'ghk_unused', GATEHOUSE_DB: join(dir, 'g.db') },
        });
        assert.equal(r.code, 0, r.stderr);
        assert.match(r.stdout, /^Usage: gatehouse /);
        for (const command of ['serve', 'keys', 'realm', 'client', 'provider', 'points', 'simulate'])
          assert.match(r.stdout, new RegExp(`^  ${command} `, 'm'), `lists ${command}`);
        assert.equal(r.stderr, '', 'nothing on stderr');
        assert.equal(connections, 0, 'no connection to the server');
        assert.deepEqual(readdirSync(dir), [], 'no database file created');
      } finally {
        listener.close();
      }
    });
  });
});
