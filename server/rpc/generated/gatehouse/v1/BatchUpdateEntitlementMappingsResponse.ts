// Original file: gatehouse/v1/billing.proto

import type { EntitlementMapping as _gatehouse_v1_EntitlementMapping, EntitlementMapping__Output as _gatehouse_v1_EntitlementMapping__Output } from '../../gatehouse/v1/EntitlementMapping.ts';
import type { Long } from '@grpc/proto-loader';

export interface BatchUpdateEntitlementMappingsResponse {
  'saved'?: (number | string | Long);
  'mappings'?: (_gatehouse_v1_EntitlementMapping)[];
}

export interface BatchUpdateEntitlementMappingsResponse__Output {
  'saved': (number);
  'mappings': (_gatehouse_v1_EntitlementMapping__Output)[];
}
