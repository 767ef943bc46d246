// Original file: gatehouse/v1/points.proto

import type { Long } from '@grpc/proto-loader';

export interface RefundTransactionRequest {
  'realmId'?: (string);
  'transactionId'?: (string);
  'amount'?: (number | string | Long);
  'reason'?: (string);
  'idempotencyKey'?: (string);
  '_amount'?: "amount";
  '_reason'?: "reason";
  '_idempotencyKey'?: "idempotencyKey";
}

export interface RefundTransactionRequest__Output {
  'realmId': (string);
  'transactionId': (string);
  'amount'?: (number);
  'reason'?: (string);
  'idempotencyKey'?: (string);
}
