// Original file: gatehouse/v1/auth.proto


export interface RevokeRequest {
  'realmId'?: (string);
  'token'?: (string);
  'tokenTypeHint'?: (string);
  'clientId'?: (string);
}

export interface RevokeRequest__Output {
  'realmId': (string);
  'token': (string);
  'tokenTypeHint': (string);
  'clientId': (string);
}
