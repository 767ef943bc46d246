// Original file: gatehouse/v1/auth.proto


export interface FullName {
  'givenName'?: (string);
  'familyName'?: (string);
}

export interface FullName__Output {
  'givenName': (string);
  'familyName': (string);
}
