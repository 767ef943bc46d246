// Original file: gatehouse/v1/admin.proto


export interface SignOutUserRequest {
  'realmId'?: (string);
  'userId'?: (string);
}

export interface SignOutUserRequest__Output {
  'realmId': (string);
  'userId': (string);
}
