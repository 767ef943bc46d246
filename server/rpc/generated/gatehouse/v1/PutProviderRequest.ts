// Original file: gatehouse/v1/admin.proto


export interface PutProviderRequest {
  'realmId'?: (string);
  'provider'?: (string);
  'clientId'?: (string);
  'enabled'?: (boolean);
  'clientSecret'?: (string);
  'additionalClientIds'?: (string)[];
  'teamId'?: (string);
  'keyId'?: (string);
  'privateKey'?: (string);
  'webClientId'?: (string);
  'requireNonce'?: (boolean);
  '_enabled'?: "enabled";
  '_clientSecret'?: "clientSecret";
  '_teamId'?: "teamId";
  '_keyId'?: "keyId";
  '_privateKey'?: "privateKey";
  '_webClientId'?: "webClientId";
  '_requireNonce'?: "requireNonce";
}

export interface PutProviderRequest__Output {
  'realmId': (string);
  'provider': (string);
  'clientId': (string);
  'enabled'?: (boolean);
  'clientSecret'?: (string);
  'additionalClientIds': (string)[];
  'teamId'?: (string);
  'keyId'?: (string);
  'privateKey'?: (string);
  'webClientId'?: (string);
  'requireNonce'?: (boolean);
}
