// The storage contract suite's common ground: what a backend hands the suites, and set-up written
// against the store interfaces only (no SQL, nothing of server/store/), so every backend runs the
// same tests.
import assert from 'node:assert/strict';
import type { ClientApp } from '../../server/admin/model.ts';
import { type ErrorCode, GatehouseError } from '../../server/errors.ts';
import type { Stores } from '../../server/stores.ts';
import type { User } from '../../server/users/model.ts';

export type { Stores };

/** Every store over one fresh, empty database. */
export interface StoreFixture extends Stores {
  /** The same database through another connection, as a second replica sees it. */
  peer(): Promise<Stores>;
  /** Closes every connection and drops the database. */
  close(): Promise<void>;
}

export type StoreFactory = () => Promise<StoreFixture>;

export interface Backend {
  name: string;
  factory: StoreFactory;
}

/** A fixed instant the suites count from; stores take `now` as a parameter, nothing reads a clock. */
export const T0 = Date.UTC(2026, 2, 10, 9);
export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

let seq = 0;
/** A name no other test of the run uses (each suite shares one database across its tests). */
export const unique = (prefix: string) => `${prefix}-${++seq}`;

export async function seedRealm(s: Stores, id = unique('realm')): Promise<string> {
  assert.equal(await s.admin.createRealm({ id, name: id, createdAt: T0 }), true);
  return id;
}

export async function seedUser(s: Stores, realmId: string, opts: Partial<User> = {}): Promise<User> {
  const id = opts.id ?? unique('usr');
  const user: User = {
    id,
    realmId,
    email: `${id}@example.com`,
    emailVerified: true,
    givenName: null,
    familyName: null,
    createdAt: T0,
    updatedAt: opts.createdAt ?? T0,
    disabledAt: null,
    ...opts,
  };
  assert.equal(await s.users.createUser(user), true);
  return user;
}

export function clientApp(realmId: string, clientId: string, over: Partial<ClientApp> = {}): ClientApp {
  return {
    realmId,
    clientId,
    name: clientId,
    type: 'first_party',
    redirectUris: [],
    ipBinding: 'off',
    enabled: true,
    accessTokenTtlSeconds: 900,
    refreshTokenTtlSeconds: 3600,
    createdAt: T0,
    ...over,
  };
}

/** Rejects with a GatehouseError of `code` (and, when given, these extra fields). */
export async function rejectsWith(p: Promise<unknown>, code: ErrorCode, extra?: Record<string, unknown>): Promise<GatehouseError> {
  let caught: unknown;
  try {
    await p;
  } catch (e) {
    caught = e;
  }
  assert.ok(caught instanceof GatehouseError, `expected a GatehouseError ${code}, got ${caught === undefined ? 'success' : String(caught)}`);
  assert.equal(caught.code, code, caught.message);
  if (extra) for (const [k, v] of Object.entries(extra)) assert.deepEqual(caught.extra[k], v, `extra.${k}`);
  return caught;
}

/** Lets the event loop turn once: "the next call" of a replica is one made after this. */
export const nextTurn = () => new Promise<void>((r) => setImmediate(r));
