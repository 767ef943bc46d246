// Original file: gatehouse/v1/admin.proto


export interface RevokeApiKeyRequest {
  'keyId'?: (string);
}

export interface RevokeApiKeyRequest__Output {
  'keyId': (string);
}
