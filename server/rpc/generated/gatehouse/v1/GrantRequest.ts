// Original file: gatehouse/v1/points.proto

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../google/protobuf/Timestamp.ts';
import type { Long } from '@grpc/proto-loader';

export interface GrantRequest {
  'realmId'?: (string);
  'userId'?: (string);
  'kind'?: (string);
  'amount'?: (number | string | Long);
  'expiresAt'?: (_google_protobuf_Timestamp | null);
  'idempotencyKey'?: (string);
  '_idempotencyKey'?: "idempotencyKey";
}

export interface GrantRequest__Output {
  'realmId': (string);
  'userId': (string);
  'kind': (string);
  'amount': (number);
  'expiresAt': (_google_protobuf_Timestamp__Output | null);
  'idempotencyKey'?: (string);
}
