// Per-realm signing keys for access tokens, kept in the database and created on first use.
// Imported KeyObjects are cached in memory (keys are immutable once written).
import { createPrivateKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import type { Clock } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import { publicKeyOf } from './access-token.ts';
import type { AuthStore, SigningKeyRecord } from './store.ts';

export interface ActiveKey {
  kid: string;
  privateKey: KeyObject;
}

export class SigningKeys {
  private current = new Map<string, ActiveKey>(); // realm → key
  private publics = new Map<string, { realmId: string; key: KeyObject } | null>(); // kid → key

  constructor(
    private readonly store: AuthStore,
    private readonly clock: Clock,
  ) {}

  async active(realmId: string): Promise<ActiveKey> {
    const hit = this.current.get(realmId);
    if (hit) return hit;
    const rec = await this.store.currentSigningKey(realmId, () => generate(realmId, this.clock.now()));
    const k = { kid: rec.kid, privateKey: createPrivateKey(rec.privatePem) };
    this.current.set(realmId, k);
    return k;
  }

  /** The public key for `kid` if it belongs to `realmId`. */
  async publicKey(realmId: string, kid: string): Promise<KeyObject | null> {
    let hit = this.publics.get(kid);
    if (hit === undefined) {
      const rec = await this.store.signingKey(kid);
      hit = rec ? { realmId: rec.realmId, key: publicKeyOf(rec.publicJwk) } : null;
      if (rec) this.publics.set(kid, hit); // unknown kids are not cached: the map cannot be flooded
    }
    return hit && hit.realmId === realmId ? hit.key : null;
  }

  async jwks(realmId: string): Promise<Array<Record<string, string>>> {
    await this.active(realmId);
    return (await this.store.signingKeys(realmId)).map((k) => k.publicJwk);
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
  };
}
