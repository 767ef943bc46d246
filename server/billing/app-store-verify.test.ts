import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { makeSigningChain, notificationPayload, signJws, signWeak, transactionPayload } from '../../test/helpers/app-store.ts';
import { GatehouseError } from '../errors.ts';
import { appStoreVerifier, rootsFrom } from './app-store-verify.ts';

const chain = makeSigningChain();
const roots = rootsFrom([readFileSync(chain.rootFile)]);
const settings = { bundleId: 'com.example.app', appAppleId: 1234, environment: 'Production' as const };
const sandbox = { bundleId: 'com.example.app', appAppleId: null, environment: 'Sandbox' as const };

const notification = (c = chain, over: { bundleId?: string; environment?: 'Production' | 'Sandbox'; txBundleId?: string } = {}) => {
  const bundleId = over.bundleId ?? settings.bundleId;
  const environment = over.environment ?? settings.environment;
  const tx = signJws(
    c,
    transactionPayload({
      bundleId: over.txBundleId ?? bundleId,
      environment,
      productId: 'pro.monthly',
      appAccountToken: '6f1c3c3e-0000-4000-8000-000000000001',
    }),
  );
  return notificationPayload({ notificationType: 'SUBSCRIBED', bundleId, appAppleId: 1234, environment, signedTransactionInfo: tx });
};

const refused = async (p: Promise<unknown>, why: RegExp) => {
  await assert.rejects(p, (e: unknown) => e instanceof GatehouseError && e.code === 'unauthorized' && why.test(e.message));
};

describe('App Store notification verification (Apple SignedDataVerifier, our own test CA)', () => {
  it('verifies a notification and its transaction signed as Apple signs them', async () => {
    const v = appStoreVerifier(roots, settings);
    const { payload, transaction } = await v.verify(signJws(chain, notification()));
    assert.equal(payload.notificationType, 'SUBSCRIBED');
    assert.equal(transaction?.productId, 'pro.monthly');
    assert.equal(transaction?.appAccountToken, '6f1c3c3e-0000-4000-8000-000000000001');
  });

  it('verifies the sandbox environment with its own settings', async () => {
    const v = appStoreVerifier(roots, sandbox);
    const { transaction } = await v.verify(signJws(chain, notification(chain, { environment: 'Sandbox' })));
    assert.equal(transaction?.environment, 'Sandbox');
  });

  it('refuses a chain to another root', async () => {
    const other = makeSigningChain();
    await refused(appStoreVerifier(roots, settings).verify(signJws(other, notification(other))), /verification failure/);
  });

  it('refuses a leaf without the marker extension', async () => {
    const plain = makeSigningChain({ leafWithoutMarker: true });
    await refused(appStoreVerifier(rootsFrom([readFileSync(plain.rootFile)]), settings).verify(signJws(plain, notification(plain))), /verification failure/);
  });

  it('refuses an expired leaf', async () => {
    const old = makeSigningChain({ expiredLeaf: true });
    await refused(appStoreVerifier(rootsFrom([readFileSync(old.rootFile)]), settings).verify(signJws(old, notification(old))), /invalid certificate/);
  });

  it('refuses alg none and HS256', async () => {
    const v = appStoreVerifier(roots, settings);
    await refused(v.verify(signWeak(chain, notification(), 'none')), /algorithm/);
    await refused(v.verify(signWeak(chain, notification(), 'HS256')), /algorithm/);
  });

  it('refuses a payload for another bundle id or environment', async () => {
    const v = appStoreVerifier(roots, settings);
    await refused(v.verify(signJws(chain, notification(chain, { bundleId: 'com.other.app' }))), /invalid app identifier/);
    await refused(v.verify(signJws(chain, notification(chain, { environment: 'Sandbox' }))), /invalid environment/);
  });

  it('verifies a payload claiming the Xcode environment all the same (the library skips signatures only when configured for Xcode)', async () => {
    const other = makeSigningChain();
    const n = notification(other);
    (n.data as { environment: string }).environment = 'Xcode';
    await refused(appStoreVerifier(roots, settings).verify(signJws(other, n)), /verification failure/);
  });

  it('refuses a transaction for another app inside a valid notification', async () => {
    await refused(appStoreVerifier(roots, settings).verify(signJws(chain, notification(chain, { txBundleId: 'com.other.app' }))), /invalid app identifier/);
  });

  it('refuses a tampered signedTransactionInfo inside a valid outer JWS', async () => {
    const n = notification();
    const [h, body, sig] = (n.data.signedTransactionInfo as string).split('.');
    const tx = JSON.parse(Buffer.from(body as string, 'base64url').toString());
    tx.productId = 'max.monthly';
    n.data.signedTransactionInfo = `${h}.${Buffer.from(JSON.stringify(tx)).toString('base64url')}.${sig}`;
    await refused(appStoreVerifier(roots, settings).verify(signJws(chain, n)), /verification failure/);
  });

  it('refuses a tampered outer payload', async () => {
    const [h, , sig] = signJws(chain, notification()).split('.');
    const forged = Buffer.from(JSON.stringify({ ...notification(), notificationType: 'REFUND' })).toString('base64url');
    await refused(appStoreVerifier(roots, settings).verify(`${h}.${forged}.${sig}`), /verification failure/);
  });

  it('answers a chain verified before from its cache, still checking the dates', async () => {
    const v = appStoreVerifier(roots, settings);
    await v.verify(signJws(chain, notification()));
    await v.verify(signJws(chain, notification()));
    const n = notification();
    n.signedDate = Date.parse('2001-01-01T00:00:00Z');
    await refused(v.verify(signJws(chain, n)), /invalid certificate/);
  });
});
