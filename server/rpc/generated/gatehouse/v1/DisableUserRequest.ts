// Original file: gatehouse/v1/admin.proto


export interface DisableUserRequest {
  'realmId'?: (string);
  'userId'?: (string);
}

export interface DisableUserRequest__Output {
  'realmId': (string);
  'userId': (string);
}
