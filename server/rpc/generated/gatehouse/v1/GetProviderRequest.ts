// Original file: gatehouse/v1/admin.proto


export interface GetProviderRequest {
  'realmId'?: (string);
  'provider'?: (string);
}

export interface GetProviderRequest__Output {
  'realmId': (string);
  'provider': (string);
}
