// Original file: gatehouse/v1/auth.proto


export interface ListMyIdentitiesRequest {
  'realmId'?: (string);
}

export interface ListMyIdentitiesRequest__Output {
  'realmId': (string);
}
