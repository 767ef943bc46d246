// Original file: gatehouse/v1/auth.proto


export interface AuthorizeRequest {
  'realmId'?: (string);
  'responseType'?: (string);
  'clientId'?: (string);
  'redirectUri'?: (string);
  'state'?: (string);
  'codeChallenge'?: (string);
  'codeChallengeMethod'?: (string);
  'scope'?: (string);
}

export interface AuthorizeRequest__Output {
  'realmId': (string);
  'responseType': (string);
  'clientId': (string);
  'redirectUri': (string);
  'state': (string);
  'codeChallenge': (string);
  'codeChallengeMethod': (string);
  'scope': (string);
}
