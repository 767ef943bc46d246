// Original file: gatehouse/v1/auth.proto


export interface AppleWebCallbackRequest {
  'realmId'?: (string);
  'code'?: (string);
  'idToken'?: (string);
  'state'?: (string);
  'user'?: (string);
  'error'?: (string);
}

export interface AppleWebCallbackRequest__Output {
  'realmId': (string);
  'code': (string);
  'idToken': (string);
  'state': (string);
  'user': (string);
  'error': (string);
}
