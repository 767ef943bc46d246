// Original file: gatehouse/v1/points.proto

import type { RefundAllocation as _gatehouse_v1_RefundAllocation, RefundAllocation__Output as _gatehouse_v1_RefundAllocation__Output } from '../../gatehouse/v1/RefundAllocation.ts';
import type { Remaining as _gatehouse_v1_Remaining, Remaining__Output as _gatehouse_v1_Remaining__Output } from '../../gatehouse/v1/Remaining.ts';
import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../google/protobuf/Timestamp.ts';
import type { Long } from '@grpc/proto-loader';

export interface RefundTransactionResponse {
  'refundId'?: (string);
  'transactionId'?: (string);
  'userId'?: (string);
  'amount'?: (number | string | Long);
  'refunded'?: (number | string | Long);
  'allocations'?: (_gatehouse_v1_RefundAllocation)[];
  'remaining'?: (_gatehouse_v1_Remaining | null);
  'createdAt'?: (_google_protobuf_Timestamp | null);
}

export interface RefundTransactionResponse__Output {
  'refundId': (string);
  'transactionId': (string);
  'userId': (string);
  'amount': (number);
  'refunded': (number);
  'allocations': (_gatehouse_v1_RefundAllocation__Output)[];
  'remaining': (_gatehouse_v1_Remaining__Output | null);
  'createdAt': (_google_protobuf_Timestamp__Output | null);
}
