// Per-realm signing keys for access tokens, kept in the database, created on first use and
// rotated by an operator or on schedule (signing-key-rotation.ts). Imported KeyObjects are cached
// in memory while the store's signing-keys version stays the same, so a rotation made by any
// process is seen here on the next call.
import { createPrivateKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { type ChangeBy, SYSTEM_CHANGE } from '../admin/store.ts';
import type { Clock } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import { publicKeyOf } from './access-token.ts';
import { decideRotation, keyInService, type RotationReason } from './signing-key-rotation.ts';
import type { AuthStore, SigningKeyRecord, SigningKeyRotation } from './store.ts';

export interface ActiveKey {
  kid: string;
  privateKey: KeyObject;
}

interface PublicKey {
  realmId: string;
  key: KeyObject;
  retiredAt: number | null;
}

export class SigningKeys {
  private current = new Map<string, ActiveKey>(); // realm → key
  private publics = new Map<string, PublicKey>(); // kid → key
  private version: number | null = null;

  constructor(
    private readonly store: AuthStore,
    private readonly clock: Clock,
  ) {}

  /** Drops what is cached when the keys may have changed since it was read. */
  private async fresh(): Promise<void> {
    const version = await this.store.signingKeysVersion();
    if (version === this.version) return;
    this.version = version;
    this.current.clear();
    this.publics.clear();
  }

  async active(realmId: string): Promise<ActiveKey> {
    await this.fresh();
    const hit = this.current.get(realmId);
    if (hit) return hit;
    const rec = await this.store.currentSigningKey(realmId, () => generate(realmId, this.clock.now()));
    const k = { kid: rec.kid, privateKey: createPrivateKey(rec.privatePem) };
    this.current.set(realmId, k);
    return k;
  }

  /** The public key for `kid` if it belongs to `realmId` and is in service (not retired). */
  async publicKey(realmId: string, kid: string): Promise<KeyObject | null> {
    await this.fresh();
    let hit = this.publics.get(kid);
    if (hit === undefined) {
      const rec = await this.store.signingKey(kid);
      if (!rec) return null; // unknown kids are not cached: the map cannot be flooded
      hit = { realmId: rec.realmId, key: publicKeyOf(rec.publicJwk), retiredAt: rec.retiredAt };
      this.publics.set(kid, hit);
    }
    return hit.realmId === realmId && keyInService(hit, this.clock.now()) ? hit.key : null;
  }

  /** The realm's keys in service: the current one and those rotated but not yet retired. */
  async jwks(realmId: string): Promise<Array<Record<string, string>>> {
    await this.active(realmId);
    const now = this.clock.now();
    return (await this.store.signingKeys(realmId)).filter((k) => keyInService(k, now)).map((k) => k.publicJwk);
  }

  /** Replaces the realm's key now (an operator's rotation), or when it is due (`schedule`). */
  async rotate(realmId: string, reason: RotationReason, by: ChangeBy = SYSTEM_CHANGE): Promise<SigningKeyRotation> {
    const now = this.clock.now();
    return this.store.rotateSigningKey(
      realmId,
      now,
      (current, longestAccessTtlS) => decideRotation(current, now, longestAccessTtlS, reason),
      () => generate(realmId, now),
      by,
    );
  }

  /** The scheduled rotation: every realm whose key is older than `maxAgeMs` gets a new one, once
   *  however many replicas run this together (the store decides under the realm's lock). */
  async rotateDue(maxAgeMs: number): Promise<SigningKeyRotation[]> {
    const now = this.clock.now();
    const rotations: SigningKeyRotation[] = [];
    for (const realmId of await this.store.realmsWithKeysCreatedBy(now - maxAgeMs)) {
      const r = await this.rotate(realmId, { kind: 'schedule', maxAgeMs });
      if (r.rotated) rotations.push(r);
    }
    return rotations;
  }
}

function generate(realmId: string, now: number): SigningKeyRecord {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const kid = newId('key');
  const jwk = publicKey.export({ format: 'jwk' }) as Record<string, string>;
  return {
    kid,
    realmId,
    alg: 'EdDSA',
    privatePem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    publicJwk: { kty: jwk.kty!, crv: jwk.crv!, x: jwk.x!, kid, alg: 'EdDSA', use: 'sig' },
    createdAt: now,
    retiredAt: null,
  };
}
