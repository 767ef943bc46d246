// Original file: gatehouse/v1/auth.proto


export interface IntrospectRequest {
  'realmId'?: (string);
  'token'?: (string);
  'tokenTypeHint'?: (string);
}

export interface IntrospectRequest__Output {
  'realmId': (string);
  'token': (string);
  'tokenTypeHint': (string);
}
