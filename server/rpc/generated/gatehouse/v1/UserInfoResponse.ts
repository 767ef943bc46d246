// Original file: gatehouse/v1/auth.proto


export interface UserInfoResponse {
  'userId'?: (string);
  'email'?: (string);
  'emailVerified'?: (boolean);
  'givenName'?: (string);
  'familyName'?: (string);
  'clientId'?: (string);
  'sid'?: (string);
  'sub'?: (string);
}

export interface UserInfoResponse__Output {
  'userId': (string);
  'email': (string);
  'emailVerified': (boolean);
  'givenName': (string);
  'familyName': (string);
  'clientId': (string);
  'sid': (string);
  'sub': (string);
}
