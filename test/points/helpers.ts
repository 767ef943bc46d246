// Shared set-up for the points and billing tests: realms, users and keys over the real HTTP API.
import assert from 'node:assert/strict';
import type { api } from '../helpers/http.ts';

export type Api = ReturnType<typeof api>;

export async function createRealm(h: Api, id: string): Promise<void> {
  const r = await h.post('/api/admin/realms', { id, name: id });
  assert.equal(r.status, 200, r.text);
}

export async function createUser(h: Api, realm: string, email: string): Promise<string> {
  const r = await h.post(`/api/admin/realms/${realm}/users`, { email });
  assert.equal(r.status, 200, r.text);
  return r.body.id as string;
}

export async function createKey(h: Api, realm: string, permissions: string[]): Promise<string> {
  const r = await h.post('/api/admin/api-keys', { realm, permissions, name: 'test' });
  assert.equal(r.status, 200, r.text);
  return r.body.key as string;
}

export const w = (windowSeconds: number, limit: number) => ({ windowSeconds, limit });

/** n distinct windows: 60 s, 120 s, … */
export const windows = (n: number) => Array.from({ length: n }, (_, i) => w(60 * (i + 1), 10 * (i + 1)));

export async function createMapping(h: Api, realm: string, row: Record<string, unknown>, product = 'pro'): Promise<Record<string, any>> {
  const r = await h.put(`/api/bill/${realm}/entitlement-mappings/batch`, { paymentProvider: 'stripe', externalProductId: product, updates: [row] });
  assert.equal(r.status, 200, r.text);
  return r.body.mappings[0];
}

export async function subscribe(h: Api, realm: string, userId: string, mappingId: string): Promise<string> {
  const r = await h.post(`/api/bill/${realm}/subscriptions`, { userId, mappingId });
  assert.equal(r.status, 200, r.text);
  return r.body.subscriptionId as string;
}
