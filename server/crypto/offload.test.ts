// The crypto worker gives exactly node:crypto's answers, batches concurrent jobs, survives losing its
// thread mid-batch (the jobs finish on the event loop), and never keeps a process alive when idle.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { generateKeyPairSync, sign, verify } from 'node:crypto';
import { CryptoOffload } from './offload.ts';

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const rsa2 = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ed = generateKeyPairSync('ed25519');
const rs256 = (data: string, key = rsa.privateKey) => sign('sha256', Buffer.from(data), key).toString('base64url');

test('RS256 verification and Ed25519 signing give node:crypto’s answers', { timeout: 30_000 }, async () => {
  const c = new CryptoOffload();
  try {
    const data = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhIn0';
    const sig = rs256(data);
    assert.equal(await c.rs256Verify(data, sig, rsa.publicKey), true);
    assert.equal(await c.rs256Verify(data + 'x', sig, rsa.publicKey), false, 'tampered data');
    assert.equal(await c.rs256Verify(data, rs256(data, rsa2.privateKey), rsa.publicKey), false, 'another key’s signature');
    assert.equal(await c.rs256Verify(data, 'AAAA', rsa.publicKey), false, 'short signature');
    assert.equal(await c.rs256Verify(data, sig, ed.publicKey), false, 'a key of another type verifies nothing');
    const edSig = await c.ed25519Sign(data, ed.privateKey);
    assert.equal(edSig, sign(null, Buffer.from(data), ed.privateKey).toString('base64url'), 'Ed25519 is deterministic');
    assert.ok(verify(null, Buffer.from(data), ed.publicKey, Buffer.from(edSig, 'base64url')));
  } finally {
    await c.stopWorker();
  }
});

test('hundreds of concurrent jobs over several keys each get their own answer', { timeout: 30_000 }, async () => {
  const c = new CryptoOffload();
  try {
    const jobs = Array.from({ length: 300 }, (_, i) => {
      const data = `token-${i}`;
      if (i % 3 === 0) return c.ed25519Sign(data, ed.privateKey).then((s) => verify(null, Buffer.from(data), ed.publicKey, Buffer.from(s, 'base64url')));
      const key = i % 3 === 1 ? rsa : rsa2;
      const good = i % 2 === 0;
      return c.rs256Verify(data, rs256(good ? data : 'other', key.privateKey), key.publicKey).then((ok) => ok === good);
    });
    assert.deepEqual(await Promise.all(jobs), jobs.map(() => true));
  } finally {
    await c.stopWorker();
  }
});

test('jobs held by a worker that goes away finish on the event loop, and a new worker takes the next', { timeout: 30_000 }, async () => {
  const c = new CryptoOffload();
  try {
    await c.rs256Verify('warm', rs256('warm'), rsa.publicKey); // the worker is up
    const pending = Array.from({ length: 50 }, (_, i) => c.rs256Verify(`d${i}`, rs256(i % 2 ? `d${i}` : 'no'), rsa.publicKey));
    await new Promise((r) => setImmediate(r)); // the batch has been posted to the worker
    await c.stopWorker();
    assert.deepEqual(await Promise.all(pending), pending.map((_, i) => i % 2 === 1));
    assert.equal(await c.ed25519Sign('after', ed.privateKey), sign(null, Buffer.from('after'), ed.privateKey).toString('base64url'));
  } finally {
    await c.stopWorker();
  }
});

test('a process whose only work was a signature exits by itself (an idle worker holds nothing)', { timeout: 30_000 }, async () => {
  const script = `import { cryptoOffload } from ${JSON.stringify(new URL('./offload.ts', import.meta.url).href)};
import { generateKeyPairSync } from 'node:crypto';
const s = await cryptoOffload.ed25519Sign('x', generateKeyPairSync('ed25519').privateKey);
process.stdout.write(String(s.length));`;
  const started = Date.now();
  const out = await new Promise<string>((resolve, reject) =>
    execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { timeout: 15_000 }, (err, stdout) => (err ? reject(err) : resolve(stdout))),
  );
  assert.equal(out, '86', 'an Ed25519 signature is 64 bytes: 86 base64url characters');
  assert.ok(Date.now() - started < 15_000);
});
