// Original file: gatehouse/v1/admin.proto


export interface ListUsersRequest {
  'realmId'?: (string);
  'email'?: (string);
  'limit'?: (number);
}

export interface ListUsersRequest__Output {
  'realmId': (string);
  'email': (string);
  'limit': (number);
}
