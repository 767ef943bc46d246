// Original file: gatehouse/v1/admin.proto

import type { Realm as _gatehouse_v1_Realm, Realm__Output as _gatehouse_v1_Realm__Output } from '../../gatehouse/v1/Realm.ts';

export interface ListRealmsResponse {
  'realms'?: (_gatehouse_v1_Realm)[];
}

export interface ListRealmsResponse__Output {
  'realms': (_gatehouse_v1_Realm__Output)[];
}
