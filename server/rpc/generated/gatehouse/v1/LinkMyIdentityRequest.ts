// Original file: gatehouse/v1/auth.proto


export interface LinkMyIdentityRequest {
  'realmId'?: (string);
  'provider'?: (string);
  'identityToken'?: (string);
  'nonce'?: (string);
  '_nonce'?: "nonce";
}

export interface LinkMyIdentityRequest__Output {
  'realmId': (string);
  'provider': (string);
  'identityToken': (string);
  'nonce'?: (string);
}
