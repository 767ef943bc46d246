// Original file: gatehouse/v1/points.proto

import type { Long } from '@grpc/proto-loader';

export interface ConsumeRequest {
  'realmId'?: (string);
  'userId'?: (string);
  'amount'?: (number | string | Long);
  'description'?: (string);
  'idempotencyKey'?: (string);
  '_description'?: "description";
  '_idempotencyKey'?: "idempotencyKey";
}

export interface ConsumeRequest__Output {
  'realmId': (string);
  'userId': (string);
  'amount': (number);
  'description'?: (string);
  'idempotencyKey'?: (string);
}
