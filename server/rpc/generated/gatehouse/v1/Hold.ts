// Original file: gatehouse/v1/points.proto

import type { Allocation as _gatehouse_v1_Allocation, Allocation__Output as _gatehouse_v1_Allocation__Output } from '../../gatehouse/v1/Allocation.ts';
import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../google/protobuf/Timestamp.ts';
import type { Remaining as _gatehouse_v1_Remaining, Remaining__Output as _gatehouse_v1_Remaining__Output } from '../../gatehouse/v1/Remaining.ts';
import type { Long } from '@grpc/proto-loader';

export interface Hold {
  'holdId'?: (string);
  'userId'?: (string);
  'amount'?: (number | string | Long);
  'allocations'?: (_gatehouse_v1_Allocation)[];
  'status'?: (string);
  'description'?: (string);
  'createdAt'?: (_google_protobuf_Timestamp | null);
  'expiresAt'?: (_google_protobuf_Timestamp | null);
  'settledAmount'?: (number | string | Long);
  'closedAt'?: (_google_protobuf_Timestamp | null);
  'remaining'?: (_gatehouse_v1_Remaining | null);
  '_description'?: "description";
  '_settledAmount'?: "settledAmount";
}

export interface Hold__Output {
  'holdId': (string);
  'userId': (string);
  'amount': (number);
  'allocations': (_gatehouse_v1_Allocation__Output)[];
  'status': (string);
  'description'?: (string);
  'createdAt': (_google_protobuf_Timestamp__Output | null);
  'expiresAt': (_google_protobuf_Timestamp__Output | null);
  'settledAmount'?: (number);
  'closedAt': (_google_protobuf_Timestamp__Output | null);
  'remaining': (_gatehouse_v1_Remaining__Output | null);
}
