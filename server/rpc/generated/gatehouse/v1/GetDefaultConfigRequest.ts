// Original file: gatehouse/v1/points.proto


export interface GetDefaultConfigRequest {
  'realmId'?: (string);
}

export interface GetDefaultConfigRequest__Output {
  'realmId': (string);
}
