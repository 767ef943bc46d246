// Original file: gatehouse/v1/auth.proto


export interface JwksRequest {
  'realmId'?: (string);
}

export interface JwksRequest__Output {
  'realmId': (string);
}
