// Original file: gatehouse/v1/points.proto


export interface GetAlertsRequest {
  'realmId'?: (string);
}

export interface GetAlertsRequest__Output {
  'realmId': (string);
}
