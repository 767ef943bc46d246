// Original file: gatehouse/v1/auth.proto


export interface DeleteMeRequest {
  'realmId'?: (string);
  'appleAuthorizationCode'?: (string);
}

export interface DeleteMeRequest__Output {
  'realmId': (string);
  'appleAuthorizationCode': (string);
}
