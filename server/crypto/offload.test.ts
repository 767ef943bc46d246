// The crypto worker gives exactly node:crypto's answers, batches concurrent jobs, survives losing its
// thread mid-batch (the jobs finish on the event loop), never keeps a process alive when idle, and
// runs the server's blocking tasks without a signature waiting behind one.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { generateKeyPairSync, sign, verify } from 'node:crypto';
import { test } from 'node:test';
import { CryptoOffload } from './offload.ts';

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const rsa2 = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ed = generateKeyPairSync('ed25519');
const rs256 = (data: string, key = rsa.privateKey) => sign('sha256', Buffer.from(data), key).toString('base64url');

test('RS256 verification and Ed25519 signing give node:crypto’s answers', async () => {
  const c = new CryptoOffload();
  try {
    const data = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhIn0';
    const sig = rs256(data);
    assert.equal(await c.verify('RS256', data, sig, rsa.publicKey), true);
    assert.equal(await c.verify('RS256', data + 'x', sig, rsa.publicKey), false, 'tampered data');
    assert.equal(await c.verify('RS256', data, rs256(data, rsa2.privateKey), rsa.publicKey), false, 'another key’s signature');
    assert.equal(await c.verify('RS256', data, 'AAAA', rsa.publicKey), false, 'short signature');
    assert.equal(await c.verify('RS256', data, sig, ed.publicKey), false, 'a key of another type verifies nothing');
    const edSig = await c.sign('EdDSA', data, ed.privateKey);
    assert.equal(edSig, sign(null, Buffer.from(data), ed.privateKey).toString('base64url'), 'Ed25519 is deterministic');
    assert.ok(verify(null, Buffer.from(data), ed.publicKey, Buffer.from(edSig, 'base64url')));
  } finally {
    await c.stopWorker();
  }
});

test('the algorithm is a parameter: ES256 (R‖S, RFC 7518 §3.4) and EdDSA verify, and a key of another type or curve verifies nothing', async () => {
  const c = new CryptoOffload();
  const p256 = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' });
  const ed448 = generateKeyPairSync('ed448');
  const es = (data: string, key = p256.privateKey, dsaEncoding: 'ieee-p1363' | 'der' = 'ieee-p1363') =>
    sign('sha256', Buffer.from(data), { key, dsaEncoding }).toString('base64url');
  const eddsa = (data: string, key = ed.privateKey) => sign(null, Buffer.from(data), key).toString('base64url');
  try {
    const data = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJhIn0';
    assert.equal(await c.verify('ES256', data, es(data), p256.publicKey), true);
    assert.equal(Buffer.from(es(data), 'base64url').length, 64, 'R‖S is 64 bytes');
    assert.equal(await c.verify('ES256', data + 'x', es(data), p256.publicKey), false, 'tampered data');
    assert.equal(await c.verify('ES256', data, es(data, p256.privateKey, 'der'), p256.publicKey), false, 'a DER signature is not a JWS signature');
    assert.equal(await c.verify('ES256', data, es(data, p384.privateKey), p384.publicKey), false, 'ES256 is P-256 only');
    assert.equal(await c.verify('EdDSA', data, eddsa(data), ed.publicKey), true);
    assert.equal(await c.verify('EdDSA', data, eddsa(data, ed448.privateKey), ed448.publicKey), true, 'Ed448 is EdDSA too (RFC 8037)');
    assert.equal(await c.verify('EdDSA', data + 'x', eddsa(data), ed.publicKey), false, 'tampered data');
    // node:crypto verifies an RSA signature when given an RSA key and no digest: not EdDSA.
    assert.equal(
      await c.verify('EdDSA', data, sign(null, Buffer.from(data), rsa.privateKey).toString('base64url'), rsa.publicKey),
      false,
      'an RSA key is no EdDSA key',
    );
    assert.equal(await c.verify('RS256', data, es(data), p256.publicKey), false, 'an EC key is no RS256 key');
    assert.equal(await c.verify('ES256', data, rs256(data), rsa.publicKey), false, 'an RSA key is no ES256 key');
    const small = generateKeyPairSync('rsa', { modulusLength: 1024 });
    assert.equal(await c.verify('RS256', data, rs256(data, small.privateKey), small.publicKey), false, 'RS256 keys have 2048 bits or more (RFC 7518 §3.3)');
    assert.equal(await c.verify('HS256' as 'RS256', data, rs256(data), rsa.publicKey), false, 'an algorithm it does not know verifies nothing');
    const esSig = await c.sign('ES256', data, p256.privateKey);
    assert.ok(verify('sha256', Buffer.from(data), { key: p256.publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(esSig, 'base64url')), 'ES256 signing');
    await assert.rejects(c.sign('EdDSA', data, rsa.privateKey), /cannot sign EdDSA/, 'an RSA key does not sign EdDSA');
  } finally {
    await c.stopWorker();
  }
});

test('a signature asked for while the event loop has nothing else to serve is computed at once, without the thread', async () => {
  let busy = false;
  const c = new CryptoOffload({ busy: () => busy });
  try {
    const order: string[] = [];
    const turn = new Promise<void>((r) => setImmediate(() => (order.push('next turn'), r())));
    const sig = c.sign('EdDSA', 'idle', ed.privateKey).then((s) => (order.push('signature'), s));
    await Promise.all([sig, turn]);
    assert.deepEqual(order, ['signature', 'next turn'], 'answered in the turn it was asked for');
    assert.equal(await sig, sign(null, Buffer.from('idle'), ed.privateKey).toString('base64url'));
    assert.equal(await c.verify('RS256', 'idle', rs256('idle'), rsa.publicKey), true);
    assert.equal(await c.verify('RS256', 'idle', rs256('other'), rsa.publicKey), false);
    await assert.rejects(c.sign('EdDSA', 'idle', rsa.privateKey), /cannot sign EdDSA/);

    // Busy: it goes to the thread, whose answer comes turns later.
    busy = true;
    order.length = 0;
    const later = new Promise<void>((r) => setImmediate(() => (order.push('next turn'), r())));
    await Promise.all([c.sign('EdDSA', 'busy', ed.privateKey).then(() => order.push('signature')), later]);
    assert.deepEqual(order, ['next turn', 'signature']);
  } finally {
    await c.stopWorker();
  }
});

test('hundreds of concurrent jobs over several keys each get their own answer', async () => {
  const c = new CryptoOffload();
  try {
    const jobs = Array.from({ length: 300 }, (_, i) => {
      const data = `token-${i}`;
      if (i % 3 === 0) return c.sign('EdDSA', data, ed.privateKey).then((s) => verify(null, Buffer.from(data), ed.publicKey, Buffer.from(s, 'base64url')));
      const key = i % 3 === 1 ? rsa : rsa2;
      const good = i % 2 === 0;
      return c.verify('RS256', data, rs256(good ? data : 'other', key.privateKey), key.publicKey).then((ok) => ok === good);
    });
    assert.deepEqual(
      await Promise.all(jobs),
      jobs.map(() => true),
    );
  } finally {
    await c.stopWorker();
  }
});

test('jobs held by a worker that goes away finish on the event loop, and a new worker takes the next', async () => {
  const c = new CryptoOffload();
  try {
    await c.verify('RS256', 'warm', rs256('warm'), rsa.publicKey); // the worker is up
    const pending = Array.from({ length: 50 }, (_, i) => c.verify('RS256', `d${i}`, rs256(i % 2 ? `d${i}` : 'no'), rsa.publicKey));
    await new Promise((r) => setImmediate(r)); // the batch has been posted to the worker
    await c.stopWorker();
    assert.deepEqual(
      await Promise.all(pending),
      pending.map((_, i) => i % 2 === 1),
    );
    assert.equal(await c.sign('EdDSA', 'after', ed.privateKey), sign(null, Buffer.from('after'), ed.privateKey).toString('base64url'));
  } finally {
    await c.stopWorker();
  }
});

/** A task module (lib/thread-tasks.ts) as a data: URL: its functions say which thread ran them. */
const TASKS = new URL(
  'data:text/javascript,' +
    encodeURIComponent(`import { threadId } from 'node:worker_threads';
export function spin(ms) { const end = Date.now() + ms; while (Date.now() < end); return threadId; }
export function boom() { throw new Error('boom: ' + threadId); }
export function uncloneable() { return () => threadId; }`),
);

test('a task runs on the thread, and a signature asked for meanwhile is computed on the event loop, not behind it', async () => {
  const c = new CryptoOffload();
  try {
    await c.verify('RS256', 'warm', rs256('warm'), rsa.publicKey); // the worker is up
    const order: string[] = [];
    const task = c.runTask(TASKS, 'spin', 1500)!.then((threadId) => {
      order.push('task');
      return threadId;
    });
    // Sent after the task: were it queued on the thread, it would answer after the task's 1.5 s.
    const sig = await c.sign('EdDSA', 'during', ed.privateKey);
    order.push('signature');
    assert.equal(sig, sign(null, Buffer.from('during'), ed.privateKey).toString('base64url'));
    const threadId = await task;
    assert.deepEqual(order, ['signature', 'task']);
    assert.ok(typeof threadId === 'number' && threadId > 0, `ran on a worker thread (threadId ${String(threadId)}), not the main one (0)`);
    // The task answered: signatures go to the thread again (its threadId in a task after them).
    assert.equal(await c.verify('RS256', 'after', rs256('after'), rsa.publicKey), true);
    assert.equal(await c.runTask(TASKS, 'spin', 0), threadId, 'the same thread');
  } finally {
    await c.stopWorker();
  }
});

test('a task that throws, cannot be loaded, answers what cannot be cloned, or whose thread stops rejects; the thread goes on', async () => {
  const c = new CryptoOffload();
  try {
    await assert.rejects(c.runTask(TASKS, 'boom', null)!, /^Error: boom: [1-9]/);
    await assert.rejects(c.runTask(TASKS, 'uncloneable', null)!, /could not be cloned/);
    await assert.rejects(c.runTask(new URL('data:text/javascript,syntax error('), 'f', null)!);
    await assert.rejects(c.runTask(TASKS, 'missing', null)!, /not a function/);
    const held = assert.rejects(c.runTask(TASKS, 'spin', 60_000)!, /the signature thread stopped/);
    await new Promise((r) => setTimeout(r, 50));
    await c.stopWorker();
    await held;
    // A stopped thread is replaced on the next call; a failed task left nothing behind.
    assert.equal(await c.verify('RS256', 'again', rs256('again'), rsa.publicKey), true);
    assert.equal(typeof (await c.runTask(TASKS, 'spin', 0)), 'number');
  } finally {
    await c.stopWorker();
  }
});

test('a process whose only work was a signature and a task exits by itself (an idle worker holds nothing)', async () => {
  const script = `import { CryptoOffload } from ${JSON.stringify(new URL('./offload.ts', import.meta.url).href)};
import { generateKeyPairSync } from 'node:crypto';
const c = new CryptoOffload();
const s = await c.sign('EdDSA', 'x', generateKeyPairSync('ed25519').privateKey);
await c.runTask(new URL(${JSON.stringify(TASKS.href)}), 'spin', 0);
process.stdout.write(String(s.length));`;
  // Waits for the child's own exit: a worker holding the event loop would keep it running.
  const out = await new Promise<string>((resolve, reject) =>
    execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], (err, stdout) => (err ? reject(err) : resolve(stdout))),
  );
  assert.equal(out, '86', 'an Ed25519 signature is 64 bytes: 86 base64url characters');
});
