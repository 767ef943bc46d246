// Original file: gatehouse/v1/points.proto


export interface ListMyTransactionsRequest {
  'realmId'?: (string);
  'pageSize'?: (number);
  'pageToken'?: (string);
  'kind'?: (string);
  '_pageSize'?: "pageSize";
}

export interface ListMyTransactionsRequest__Output {
  'realmId': (string);
  'pageSize'?: (number);
  'pageToken': (string);
  'kind': (string);
}
