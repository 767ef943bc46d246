// Original file: gatehouse/v1/points.proto


export interface GetHoldRequest {
  'realmId'?: (string);
  'holdId'?: (string);
}

export interface GetHoldRequest__Output {
  'realmId': (string);
  'holdId': (string);
}
