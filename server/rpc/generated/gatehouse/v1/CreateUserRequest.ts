// Original file: gatehouse/v1/admin.proto


export interface CreateUserRequest {
  'realmId'?: (string);
  'email'?: (string);
  'emailVerified'?: (boolean);
  'givenName'?: (string);
  'familyName'?: (string);
}

export interface CreateUserRequest__Output {
  'realmId': (string);
  'email': (string);
  'emailVerified': (boolean);
  'givenName': (string);
  'familyName': (string);
}
