// A separate process that storms a gatehouse with consumes, grants and logins, and prints one JSON
// line per request it saw acknowledged (and one per request it attempted) so the crash-safety test
// can check, after a SIGKILL and a restart, that nothing acknowledged was lost or doubled.
// argv: httpUrl apiKey realm userIdsCsv tokensFile
import { readFileSync } from 'node:fs';

const [http, key, realm, usersCsv, tokensFile] = process.argv.slice(2) as [string, string, string, string, string];
const users = usersCsv.split(',');
const tokens = JSON.parse(readFileSync(tokensFile, 'utf8')) as string[];
const out = (o: object) => process.stdout.write(JSON.stringify(o) + '\n');
let seq = 0;
let failures = 0;

async function post(path: string, body: unknown, auth = true): Promise<{ status: number; body: any }> {
  const res = await fetch(http + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(auth ? { authorization: `Bearer ${key}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

async function one(lane: number): Promise<void> {
  const n = seq++;
  const user = users[n % users.length]!;
  const kind = n % 5 === 0 ? 'grant' : n % 7 === 0 && tokens.length ? 'login' : 'consume';
  const idempotencyKey = `storm-${lane}-${n}`;
  let path: string;
  let body: Record<string, unknown>;
  if (kind === 'grant') {
    path = `/api/points/${realm}/users/${user}/grants`;
    body = { kind: 'topup_credit', amount: 3, idempotencyKey };
  } else if (kind === 'login') {
    path = `/api/oauth/${realm}/apple/native-login`;
    body = { identityToken: tokens[n % tokens.length], clientId: 'app' };
  } else {
    path = `/api/points/${realm}/consume`;
    body = { userId: user, amount: 1 + (n % 4), idempotencyKey };
  }
  out({ t: 'try', kind, path, body });
  try {
    const res = await post(path, body, kind !== 'login');
    if (res.status === 200) out({ t: 'ack', kind, path, body, answer: res.body });
    else out({ t: 'refused', kind, status: res.status, error: res.body.error });
  } catch {
    failures++;
  }
}

// 8 lanes in parallel until the server is gone (a few failed requests in a row).
await Promise.all(
  Array.from({ length: 8 }, async (_, lane) => {
    while (failures < 20) await one(lane);
  }),
);
