// Original file: gatehouse/v1/admin.proto


export interface WhoAmIResponse {
  'keyId'?: (string);
  'realm'?: (string);
  'permissions'?: (string)[];
}

export interface WhoAmIResponse__Output {
  'keyId': (string);
  'realm': (string);
  'permissions': (string)[];
}
