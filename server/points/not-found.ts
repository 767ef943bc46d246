// The lookups a use case starts from: an unknown realm or user is a 404 naming it.
import { notFound } from '../errors.ts';

export function assertRealm(found: boolean, realmId: string): void {
  if (!found) throw notFound(`Realm ${realmId} not found`);
}

export function assertUser(found: boolean, realmId: string, userId: string): void {
  if (!found) throw notFound(`User ${userId} not found in realm ${realmId}`);
}

export function assertHold(found: boolean, realmId: string, holdId: string): void {
  if (!found) throw notFound(`Hold ${holdId} not found in realm ${realmId}`);
}

export function assertTransaction(found: boolean, realmId: string, transactionId: string): void {
  if (!found) throw notFound(`No consume or settlement ${transactionId} in realm ${realmId}`);
}
