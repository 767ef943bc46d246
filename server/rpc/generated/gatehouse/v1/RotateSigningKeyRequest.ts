// Original file: gatehouse/v1/admin.proto


export interface RotateSigningKeyRequest {
  'realmId'?: (string);
  'algorithm'?: (string);
  '_algorithm'?: "algorithm";
}

export interface RotateSigningKeyRequest__Output {
  'realmId': (string);
  'algorithm'?: (string);
}
