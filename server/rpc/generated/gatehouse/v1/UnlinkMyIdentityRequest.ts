// Original file: gatehouse/v1/auth.proto


export interface UnlinkMyIdentityRequest {
  'realmId'?: (string);
  'provider'?: (string);
}

export interface UnlinkMyIdentityRequest__Output {
  'realmId': (string);
  'provider': (string);
}
