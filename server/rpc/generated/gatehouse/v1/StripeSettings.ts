// Original file: gatehouse/v1/billing.proto


export interface StripeSettings {
  'webhookSecretSet'?: (boolean);
}

export interface StripeSettings__Output {
  'webhookSecretSet': (boolean);
}
