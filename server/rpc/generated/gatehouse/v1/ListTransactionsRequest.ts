// Original file: gatehouse/v1/points.proto


export interface ListTransactionsRequest {
  'realmId'?: (string);
  'userId'?: (string);
  'pageSize'?: (number);
  'pageToken'?: (string);
  'kind'?: (string);
  '_pageSize'?: "pageSize";
}

export interface ListTransactionsRequest__Output {
  'realmId': (string);
  'userId': (string);
  'pageSize'?: (number);
  'pageToken': (string);
  'kind': (string);
}
