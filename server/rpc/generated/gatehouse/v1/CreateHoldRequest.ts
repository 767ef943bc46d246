// Original file: gatehouse/v1/points.proto

import type { Long } from '@grpc/proto-loader';

export interface CreateHoldRequest {
  'realmId'?: (string);
  'userId'?: (string);
  'amount'?: (number | string | Long);
  'ttlSeconds'?: (number | string | Long);
  'description'?: (string);
  'idempotencyKey'?: (string);
  '_ttlSeconds'?: "ttlSeconds";
  '_description'?: "description";
  '_idempotencyKey'?: "idempotencyKey";
}

export interface CreateHoldRequest__Output {
  'realmId': (string);
  'userId': (string);
  'amount': (number);
  'ttlSeconds'?: (number);
  'description'?: (string);
  'idempotencyKey'?: (string);
}
