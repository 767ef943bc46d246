// Original file: gatehouse/v1/billing.proto

import type { EntitlementMappingUpdate as _gatehouse_v1_EntitlementMappingUpdate, EntitlementMappingUpdate__Output as _gatehouse_v1_EntitlementMappingUpdate__Output } from '../../gatehouse/v1/EntitlementMappingUpdate.ts';

export interface BatchUpdateEntitlementMappingsRequest {
  'realmId'?: (string);
  'paymentProvider'?: (string);
  'externalProductId'?: (string);
  'updates'?: (_gatehouse_v1_EntitlementMappingUpdate)[];
}

export interface BatchUpdateEntitlementMappingsRequest__Output {
  'realmId': (string);
  'paymentProvider': (string);
  'externalProductId': (string);
  'updates': (_gatehouse_v1_EntitlementMappingUpdate__Output)[];
}
