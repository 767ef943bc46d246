// Original file: gatehouse/v1/billing.proto


export interface GetPaymentProviderSettingsRequest {
  'realmId'?: (string);
}

export interface GetPaymentProviderSettingsRequest__Output {
  'realmId': (string);
}
