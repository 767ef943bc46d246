// Original file: gatehouse/v1/admin.proto


export interface ListProvidersRequest {
  'realmId'?: (string);
}

export interface ListProvidersRequest__Output {
  'realmId': (string);
}
