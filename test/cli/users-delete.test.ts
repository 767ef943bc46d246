// `gatehouse users delete USER_ID` against a real server, the CLI a child process: asks on a
// terminal (no answer, nothing deleted), refuses without one unless --yes, --json answers the
// deletion, a second deletion fails with the server's not_found.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { api } from '../helpers/http.ts';
import { runInPty } from '../helpers/pty.ts';
import { BIN, type InProcessServer, startInProcess } from '../helpers/server.ts';

describe('gatehouse users delete', () => {
  let srv: InProcessServer;
  let env: Record<string, string>;
  let admin: ReturnType<typeof api>;
  let seq = 0;

  before(async () => {
    srv = await startInProcess();
    env = { GATEHOUSE_SERVER: srv.grpc, GATEHOUSE_API_KEY: srv.adminKey, GATEHOUSE_REALM: 'cli-del' };
    admin = api(srv.http, srv.adminKey);
    assert.equal((await admin.post('/api/admin/realms', { id: 'cli-del', name: 'CLI deletion' })).status, 200);
  });
  after(() => srv.stop());

  const newUser = async (): Promise<string> => {
    const r = await admin.post('/api/admin/realms/cli-del/users', { email: `cli-del-${++seq}@example.com`, emailVerified: true });
    assert.equal(r.status, 200, r.text);
    return r.body.id;
  };
  const exists = async (userId: string) => (await admin.get(`/api/admin/realms/cli-del/users/${userId}`)).status === 200;

  it('refuses without a terminal unless --yes, deleting nothing', async () => {
    const userId = await newUser();
    const r = await runCli(['users', 'delete', userId], { env });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /pass --yes/);
    assert.equal(r.stdout, '');
    assert.equal(await exists(userId), true);
  });

  it('deletes with --yes, --json answering {userId, deletedAt, appleRevocation}; again: not_found, exit 1', async () => {
    const userId = await newUser();
    const r = await runCli(['users', 'delete', userId, '--yes', '--json'], { env });
    assert.equal(r.code, 0, r.stderr);
    const out = r.json();
    assert.equal(out.userId, userId);
    assert.equal(out.appleRevocation, 'none');
    assert.ok(Date.parse(out.deletedAt) > 0);
    assert.equal(await exists(userId), false);
    const again = await runCli(['users', 'delete', userId, '--yes'], { env });
    assert.equal(again.code, 1);
    assert.match(again.stderr, /not_found/);
  });

  it('asks on a terminal: "no" deletes nothing, "yes" deletes', async () => {
    const userId = await newUser();
    let pty = runInPty(`${process.execPath} ${BIN} users delete ${userId}`, env);
    await pty.waitFor(/\? Delete user [\s\S]*\(y\/N\)/);
    pty.type('n\r');
    assert.equal(await pty.exit, 2, pty.screen());
    assert.equal(await exists(userId), true);
    pty = runInPty(`${process.execPath} ${BIN} users delete ${userId}`, env);
    await pty.waitFor(/\? Delete user [\s\S]*\(y\/N\)/);
    pty.type('y\r');
    assert.equal(await pty.exit, 0, pty.screen());
    assert.match(pty.screen(), new RegExp(`userId:\\s+${userId}`));
    assert.equal(await exists(userId), false);
  });
});
