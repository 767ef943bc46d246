// Original file: gatehouse/v1/auth.proto


export interface MetadataRequest {
  'realmId'?: (string);
}

export interface MetadataRequest__Output {
  'realmId': (string);
}
