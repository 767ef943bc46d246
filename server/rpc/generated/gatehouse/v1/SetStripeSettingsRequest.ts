// Original file: gatehouse/v1/billing.proto


export interface SetStripeSettingsRequest {
  'realmId'?: (string);
  'webhookSecret'?: (string);
  '_webhookSecret'?: "webhookSecret";
}

export interface SetStripeSettingsRequest__Output {
  'realmId': (string);
  'webhookSecret'?: (string);
}
