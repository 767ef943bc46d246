import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ProviderConfig } from '../admin/model.ts';
import { revocationOutcome } from '../users/delete-account.ts';
import type { AccountSnapshot } from '../users/deletion.ts';
import { APPLE_REVOCATION_POLICY, planAppleRevocations, REVOKE_CODE, REVOKE_TOKEN, revocationSettings } from './apple-revocation.ts';

const T0 = Date.UTC(2026, 2, 10, 9);
const provider: ProviderConfig = {
  realmId: 'r1',
  provider: 'apple',
  clientId: 'com.example.app',
  enabled: true,
  clientSecret: null,
  requireNonce: false,
  additionalClientIds: [],
  teamId: 'TEAM',
  keyId: 'KEY',
  privateKey: '-----BEGIN PRIVATE KEY-----',
  webClientId: 'com.example.web',
  updatedAt: T0,
};
const identity = (provider: string, appleRefreshToken: string | null): AccountSnapshot['identities'][number] => ({
  realmId: 'r1',
  provider,
  subject: `${provider}-sub`,
  userId: 'usr_1',
  email: null,
  emailForwarding: null,
  createdAt: T0,
  appleRefreshToken,
});

describe('Apple revocation plan', () => {
  it("needs the team id, key id and private key; the web flow's tokens go to the Services ID, else the bundle id", () => {
    assert.deepEqual(revocationSettings(provider), { clientId: 'com.example.app', webClientId: 'com.example.web' });
    assert.deepEqual(revocationSettings({ ...provider, webClientId: '' }), { clientId: 'com.example.app', webClientId: 'com.example.app' });
    for (const missing of [{ teamId: '' }, { keyId: '' }, { privateKey: null }]) assert.equal(revocationSettings({ ...provider, ...missing }), null);
    assert.equal(revocationSettings(null), null);
  });

  it("queues the app's code with the bundle id and each kept Apple refresh token with the Services ID, the secrets apart from the payload", () => {
    const jobs = planAppleRevocations(revocationSettings(provider), 'usr_1', 'r1', [identity('apple', 'rt-web'), identity('google', null)], 'code-1', T0);
    assert.deepEqual(
      jobs.map((j) => [j.kind, j.payload, j.secret, j.realmId, j.giveUpAt - j.createdAt]),
      [
        [REVOKE_CODE, { userId: 'usr_1', clientId: 'com.example.app' }, 'code-1', 'r1', APPLE_REVOCATION_POLICY.lifetimeMs],
        [REVOKE_TOKEN, { userId: 'usr_1', clientId: 'com.example.web' }, 'rt-web', 'r1', APPLE_REVOCATION_POLICY.lifetimeMs],
      ],
    );
    assert.equal(APPLE_REVOCATION_POLICY.lifetimeMs, 24 * 3_600_000);
  });

  it('queues nothing without a code or kept token, or when the realm cannot sign a client secret', () => {
    assert.deepEqual(planAppleRevocations(revocationSettings(provider), 'usr_1', 'r1', [identity('apple', null)], null, T0), []);
    assert.deepEqual(planAppleRevocations(null, 'usr_1', 'r1', [identity('apple', 'rt')], 'code', T0), []);
  });

  it('answers revoked only when every attempt revoked, pending otherwise, none without a job', () => {
    const revoked = { kind: 'done' as const, detail: { outcome: 'revoked' } };
    assert.equal(revocationOutcome([]), 'none');
    assert.equal(revocationOutcome([revoked, revoked]), 'revoked');
    assert.equal(revocationOutcome([revoked, { kind: 'retry', error: 'HTTP 503' }]), 'pending');
    assert.equal(revocationOutcome([{ kind: 'done', detail: { outcome: 'handed_over' } }]), 'pending');
    assert.equal(revocationOutcome([null]), 'pending', 'not run now (another replica holds it)');
  });
});
