// Per-realm signing keys for access tokens, kept in the database, created on first use and
// rotated by an operator or on schedule (signing-key-rotation.ts). A realm's first key is ES256; a
// rotation keeps the algorithm of the key it replaces unless the operator names another, so the
// tokens a realm's resource servers verify change algorithm only when asked. Imported KeyObjects
// are cached in memory while the store's signing-keys version stays the same, so a rotation made
// by any process is seen here on the next call.
import { createPrivateKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { type ChangeBy, SYSTEM_CHANGE } from '../admin/store.ts';
import type { Clock } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import { publicKeyOf } from './access-token.ts';
import { decideRotation, keyInService, type RotationReason } from './signing-key-rotation.ts';
import type { AuthStore, SigningAlgorithm, SigningKeyRecord, SigningKeyRotation } from './store.ts';

/** The algorithm of a realm's first key. ES256 rather than EdDSA: RFC 7518 §3.1 recommends it, so
 *  every JOSE library verifies it, and node's OpenSSL computes P-256 in assembly but Ed25519 in
 *  portable C (on the bench's machine a signature costs 25 µs against 36, a verification 65 µs
 *  against 105). */
export const FIRST_KEY_ALGORITHM: SigningAlgorithm = 'ES256';

export interface ActiveKey {
  kid: string;
  alg: SigningAlgorithm;
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
    const rec = await this.store.currentSigningKey(realmId, () => generate(realmId, this.clock.now(), FIRST_KEY_ALGORITHM));
    const k = { kid: rec.kid, alg: rec.alg, privateKey: createPrivateKey(rec.privatePem) };
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

  /** Replaces the realm's key now (an operator's rotation), or when it is due (`schedule`); the
   *  new key is of `alg`, else of the replaced key's algorithm. */
  async rotate(realmId: string, reason: RotationReason, by: ChangeBy = SYSTEM_CHANGE, alg?: SigningAlgorithm): Promise<SigningKeyRotation> {
    const now = this.clock.now();
    return this.store.rotateSigningKey(
      realmId,
      now,
      (current, longestAccessTtlS) => decideRotation(current, now, longestAccessTtlS, reason),
      (current) => generate(realmId, now, alg ?? current?.alg ?? FIRST_KEY_ALGORITHM),
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

function generate(realmId: string, now: number, alg: SigningAlgorithm): SigningKeyRecord {
  const { privateKey, publicKey } = alg === 'ES256' ? generateKeyPairSync('ec', { namedCurve: 'P-256' }) : generateKeyPairSync('ed25519');
  const kid = newId('key');
  // The public JWK's own members (RFC 7518 §6.2.1 for EC, RFC 8037 §2 for OKP), then ours.
  const { kty, crv, x, y } = publicKey.export({ format: 'jwk' }) as Record<string, string>;
  return {
    kid,
    realmId,
    alg,
    privatePem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    publicJwk: { kty: kty!, crv: crv!, x: x!, ...(y === undefined ? {} : { y }), kid, alg, use: 'sig' },
    createdAt: now,
    retiredAt: null,
  };
}
