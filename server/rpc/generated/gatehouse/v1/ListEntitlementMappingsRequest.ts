// Original file: gatehouse/v1/billing.proto


export interface ListEntitlementMappingsRequest {
  'realmId'?: (string);
  'paymentProvider'?: (string);
  'externalProductId'?: (string);
}

export interface ListEntitlementMappingsRequest__Output {
  'realmId': (string);
  'paymentProvider': (string);
  'externalProductId': (string);
}
