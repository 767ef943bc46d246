// `gatehouse alerts get|set` against a real server: what set saves is what the API answers.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { api } from '../helpers/http.ts';
import { type InProcessServer, startInProcess } from '../helpers/server.ts';
import { createRealm } from './helpers.ts';

describe('alerts command', () => {
  let srv: InProcessServer;
  let env: Record<string, string>;
  before(async () => {
    srv = await startInProcess();
    env = { GATEHOUSE_SERVER: srv.grpc, GATEHOUSE_API_KEY: srv.adminKey, GATEHOUSE_REALM: 'cli-alerts' };
    await createRealm(api(srv.http, srv.adminKey), 'cli-alerts');
  });
  after(async () => {
    await srv.stop();
  });

  it('sets the whole configuration and gets it back, as JSON and as text', async () => {
    const set = await runCli(['alerts', 'set', '--low-balance', '100', '--low-balance', '10', '--quota-exhausted', '--json'], { env });
    assert.equal(set.code, 0, set.stderr);
    assert.deepEqual(set.json().lowBalanceThresholds, [10, 100]);
    const read = (await api(srv.http, srv.adminKey).get('/api/points/cli-alerts/alerts')).body;
    assert.deepEqual(read.lowBalanceThresholds, [10, 100]);
    assert.equal(read.quotaExhausted, true);
    assert.equal(read.quotaRecovered, false);
    const text = await runCli(['alerts', 'get'], { env });
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /lowBalanceThresholds: +10, 100/);
    // set replaces: what is not given is off.
    const off = await runCli(['alerts', 'set', '--json'], { env });
    assert.deepEqual([off.json().lowBalanceThresholds, off.json().quotaExhausted], [[], false]);
  });

  it('refuses a threshold that is not a positive whole number before calling, and changes nothing', async () => {
    await runCli(['alerts', 'set', '--low-balance', '5'], { env });
    const bad = await runCli(['alerts', 'set', '--low-balance', '0'], { env });
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /--low-balance/);
    assert.equal(bad.stdout, '');
    assert.deepEqual((await runCli(['alerts', 'get', '--json'], { env })).json().lowBalanceThresholds, [5]);
  });
});
