// The operator's side of the realms' signing keys (AdminService.RotateSigningKey, `gatehouse keys
// rotate-signing`): a new key signs from now on, the replaced one is retired later
// (signing-key-rotation.ts).
import { type AdminStore, requireRealm } from '../admin/store.ts';
import { changeBy } from '../audit/actor.ts';
import { toTimestampOrNull } from '../lib/timestamp.ts';
import type { ServiceImpl } from '../rpc/types.ts';
import type { SigningKeys } from './signing-keys.ts';
import type { SigningAlgorithm } from './store.ts';

export type SigningKeyAdminHandlers = Pick<ServiceImpl<'gatehouse.v1.AdminService'>, 'rotateSigningKey'>;

export function createSigningKeyAdmin(deps: { admin: AdminStore; keys: SigningKeys }): SigningKeyAdminHandlers {
  return {
    async rotateSigningKey(req, ctx) {
      await requireRealm(deps.admin, req.realmId);
      // `algorithm` is one of the two (the field's pattern, checked before any handler runs).
      const alg = req.algorithm as SigningAlgorithm | undefined;
      const { current, replaced } = await deps.keys.rotate(req.realmId, { kind: 'operator' }, changeBy(ctx), alg);
      return { kid: current.kid, algorithm: current.alg, previousKid: replaced?.kid, previousRetiresAt: toTimestampOrNull(replaced?.retiredAt) };
    },
  };
}
