// Original file: gatehouse/v1/admin.proto


export interface GetUserRequest {
  'realmId'?: (string);
  'userId'?: (string);
}

export interface GetUserRequest__Output {
  'realmId': (string);
  'userId': (string);
}
