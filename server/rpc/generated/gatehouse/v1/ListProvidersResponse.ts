// Original file: gatehouse/v1/admin.proto

import type { Provider as _gatehouse_v1_Provider, Provider__Output as _gatehouse_v1_Provider__Output } from '../../gatehouse/v1/Provider.ts';

export interface ListProvidersResponse {
  'providers'?: (_gatehouse_v1_Provider)[];
}

export interface ListProvidersResponse__Output {
  'providers': (_gatehouse_v1_Provider__Output)[];
}
