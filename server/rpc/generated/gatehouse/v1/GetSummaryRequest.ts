// Original file: gatehouse/v1/points.proto


export interface GetSummaryRequest {
  'realmId'?: (string);
  'userId'?: (string);
}

export interface GetSummaryRequest__Output {
  'realmId': (string);
  'userId': (string);
}
