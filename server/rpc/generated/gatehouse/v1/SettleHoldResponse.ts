// Original file: gatehouse/v1/points.proto

import type { Allocation as _gatehouse_v1_Allocation, Allocation__Output as _gatehouse_v1_Allocation__Output } from '../../gatehouse/v1/Allocation.ts';
import type { Remaining as _gatehouse_v1_Remaining, Remaining__Output as _gatehouse_v1_Remaining__Output } from '../../gatehouse/v1/Remaining.ts';
import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../google/protobuf/Timestamp.ts';
import type { Long } from '@grpc/proto-loader';

export interface SettleHoldResponse {
  'transactionId'?: (string);
  'holdId'?: (string);
  'userId'?: (string);
  'amount'?: (number | string | Long);
  'allocations'?: (_gatehouse_v1_Allocation)[];
  'remaining'?: (_gatehouse_v1_Remaining | null);
  'createdAt'?: (_google_protobuf_Timestamp | null);
}

export interface SettleHoldResponse__Output {
  'transactionId': (string);
  'holdId': (string);
  'userId': (string);
  'amount': (number);
  'allocations': (_gatehouse_v1_Allocation__Output)[];
  'remaining': (_gatehouse_v1_Remaining__Output | null);
  'createdAt': (_google_protobuf_Timestamp__Output | null);
}
