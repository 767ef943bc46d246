// Original file: gatehouse/v1/points.proto


export interface ReleaseHoldRequest {
  'realmId'?: (string);
  'holdId'?: (string);
  'idempotencyKey'?: (string);
  '_idempotencyKey'?: "idempotencyKey";
}

export interface ReleaseHoldRequest__Output {
  'realmId': (string);
  'holdId': (string);
  'idempotencyKey'?: (string);
}
