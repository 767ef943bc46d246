// Original file: gatehouse/v1/points.proto


export interface GetMySummaryRequest {
  'realmId'?: (string);
}

export interface GetMySummaryRequest__Output {
  'realmId': (string);
}
