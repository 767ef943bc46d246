// Original file: gatehouse/v1/billing.proto

import type { EntitlementMapping as _gatehouse_v1_EntitlementMapping, EntitlementMapping__Output as _gatehouse_v1_EntitlementMapping__Output } from '../../gatehouse/v1/EntitlementMapping.ts';

export interface ListEntitlementMappingsResponse {
  'mappings'?: (_gatehouse_v1_EntitlementMapping)[];
}

export interface ListEntitlementMappingsResponse__Output {
  'mappings': (_gatehouse_v1_EntitlementMapping__Output)[];
}
