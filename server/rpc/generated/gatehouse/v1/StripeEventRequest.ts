// Original file: gatehouse/v1/billing.proto


export interface StripeEventRequest {
  'realmId'?: (string);
  'payload'?: (Buffer | Uint8Array | string);
}

export interface StripeEventRequest__Output {
  'realmId': (string);
  'payload': (Buffer);
}
