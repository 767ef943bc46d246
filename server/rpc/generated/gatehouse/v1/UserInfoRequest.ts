// Original file: gatehouse/v1/auth.proto


export interface UserInfoRequest {
  'realmId'?: (string);
}

export interface UserInfoRequest__Output {
  'realmId': (string);
}
