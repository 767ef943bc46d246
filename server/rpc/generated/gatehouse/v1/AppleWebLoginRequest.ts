// Original file: gatehouse/v1/auth.proto


export interface AppleWebLoginRequest {
  'realmId'?: (string);
  'clientId'?: (string);
  'downstreamState'?: (string);
  '_downstreamState'?: "downstreamState";
}

export interface AppleWebLoginRequest__Output {
  'realmId': (string);
  'clientId': (string);
  'downstreamState'?: (string);
}
