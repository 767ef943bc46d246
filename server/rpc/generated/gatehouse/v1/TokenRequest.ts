// Original file: gatehouse/v1/auth.proto


export interface TokenRequest {
  'realmId'?: (string);
  'grantType'?: (string);
  'code'?: (string);
  'redirectUri'?: (string);
  'clientId'?: (string);
  'codeVerifier'?: (string);
  'refreshToken'?: (string);
  'scope'?: (string);
}

export interface TokenRequest__Output {
  'realmId': (string);
  'grantType': (string);
  'code': (string);
  'redirectUri': (string);
  'clientId': (string);
  'codeVerifier': (string);
  'refreshToken': (string);
  'scope': (string);
}
