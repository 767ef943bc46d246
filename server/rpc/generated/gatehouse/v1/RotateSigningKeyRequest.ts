// Original file: gatehouse/v1/admin.proto


export interface RotateSigningKeyRequest {
  'realmId'?: (string);
}

export interface RotateSigningKeyRequest__Output {
  'realmId': (string);
}
