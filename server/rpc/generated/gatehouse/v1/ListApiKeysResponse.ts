// Original file: gatehouse/v1/admin.proto

import type { ApiKey as _gatehouse_v1_ApiKey, ApiKey__Output as _gatehouse_v1_ApiKey__Output } from '../../gatehouse/v1/ApiKey.ts';

export interface ListApiKeysResponse {
  'keys'?: (_gatehouse_v1_ApiKey)[];
}

export interface ListApiKeysResponse__Output {
  'keys': (_gatehouse_v1_ApiKey__Output)[];
}
