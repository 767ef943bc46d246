// Original file: gatehouse/v1/billing.proto


export interface CancelSubscriptionRequest {
  'realmId'?: (string);
  'subscriptionId'?: (string);
}

export interface CancelSubscriptionRequest__Output {
  'realmId': (string);
  'subscriptionId': (string);
}
