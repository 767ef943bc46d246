// Original file: gatehouse/v1/auth.proto

import type { Jwk as _gatehouse_v1_Jwk, Jwk__Output as _gatehouse_v1_Jwk__Output } from '../../gatehouse/v1/Jwk.ts';

export interface JwkSet {
  'keys'?: (_gatehouse_v1_Jwk)[];
}

export interface JwkSet__Output {
  'keys': (_gatehouse_v1_Jwk__Output)[];
}
