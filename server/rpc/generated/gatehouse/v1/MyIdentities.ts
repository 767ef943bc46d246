// Original file: gatehouse/v1/auth.proto

import type { LinkedIdentity as _gatehouse_v1_LinkedIdentity, LinkedIdentity__Output as _gatehouse_v1_LinkedIdentity__Output } from '../../gatehouse/v1/LinkedIdentity.ts';

export interface MyIdentities {
  'identities'?: (_gatehouse_v1_LinkedIdentity)[];
}

export interface MyIdentities__Output {
  'identities': (_gatehouse_v1_LinkedIdentity__Output)[];
}
