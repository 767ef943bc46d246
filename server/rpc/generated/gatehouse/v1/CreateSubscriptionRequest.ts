// Original file: gatehouse/v1/billing.proto


export interface CreateSubscriptionRequest {
  'realmId'?: (string);
  'userId'?: (string);
  'mappingId'?: (string);
  'externalSubscriptionId'?: (string);
  '_externalSubscriptionId'?: "externalSubscriptionId";
}

export interface CreateSubscriptionRequest__Output {
  'realmId': (string);
  'userId': (string);
  'mappingId': (string);
  'externalSubscriptionId'?: (string);
}
