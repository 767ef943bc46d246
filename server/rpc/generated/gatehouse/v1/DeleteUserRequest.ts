// Original file: gatehouse/v1/admin.proto


export interface DeleteUserRequest {
  'realmId'?: (string);
  'userId'?: (string);
}

export interface DeleteUserRequest__Output {
  'realmId': (string);
  'userId': (string);
}
