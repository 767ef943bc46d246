// Original file: gatehouse/v1/admin.proto


export interface EnableUserRequest {
  'realmId'?: (string);
  'userId'?: (string);
}

export interface EnableUserRequest__Output {
  'realmId': (string);
  'userId': (string);
}
