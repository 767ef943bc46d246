// Original file: gatehouse/v1/auth.proto

import type { FullName as _gatehouse_v1_FullName, FullName__Output as _gatehouse_v1_FullName__Output } from '../../gatehouse/v1/FullName.ts';

export interface NativeLoginRequest {
  'realmId'?: (string);
  'provider'?: (string);
  'identityToken'?: (string);
  'clientId'?: (string);
  'downstreamState'?: (string);
  'nonce'?: (string);
  'fullName'?: (_gatehouse_v1_FullName | null);
  '_downstreamState'?: "downstreamState";
  '_nonce'?: "nonce";
}

export interface NativeLoginRequest__Output {
  'realmId': (string);
  'provider': (string);
  'identityToken': (string);
  'clientId': (string);
  'downstreamState'?: (string);
  'nonce'?: (string);
  'fullName': (_gatehouse_v1_FullName__Output | null);
}
