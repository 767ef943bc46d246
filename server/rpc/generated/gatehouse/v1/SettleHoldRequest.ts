// Original file: gatehouse/v1/points.proto

import type { Long } from '@grpc/proto-loader';

export interface SettleHoldRequest {
  'realmId'?: (string);
  'holdId'?: (string);
  'amount'?: (number | string | Long);
  'description'?: (string);
  'idempotencyKey'?: (string);
  '_amount'?: "amount";
  '_description'?: "description";
  '_idempotencyKey'?: "idempotencyKey";
}

export interface SettleHoldRequest__Output {
  'realmId': (string);
  'holdId': (string);
  'amount'?: (number);
  'description'?: (string);
  'idempotencyKey'?: (string);
}
