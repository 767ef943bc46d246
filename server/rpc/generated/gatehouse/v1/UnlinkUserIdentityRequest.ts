// Original file: gatehouse/v1/admin.proto


export interface UnlinkUserIdentityRequest {
  'realmId'?: (string);
  'userId'?: (string);
  'provider'?: (string);
}

export interface UnlinkUserIdentityRequest__Output {
  'realmId': (string);
  'userId': (string);
  'provider': (string);
}
