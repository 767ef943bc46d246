// Original file: gatehouse/v1/admin.proto


export interface CreateApiKeyRequest {
  'realm'?: (string);
  'permissions'?: (string)[];
  'name'?: (string);
}

export interface CreateApiKeyRequest__Output {
  'realm': (string);
  'permissions': (string)[];
  'name': (string);
}
