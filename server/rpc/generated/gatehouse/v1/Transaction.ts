// Original file: gatehouse/v1/points.proto

import type { Allocation as _gatehouse_v1_Allocation, Allocation__Output as _gatehouse_v1_Allocation__Output } from '../../gatehouse/v1/Allocation.ts';
import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../google/protobuf/Timestamp.ts';
import type { Long } from '@grpc/proto-loader';

export interface Transaction {
  'transactionId'?: (string);
  'kind'?: (string);
  'amount'?: (number | string | Long);
  'allocations'?: (_gatehouse_v1_Allocation)[];
  'description'?: (string);
  'createdAt'?: (_google_protobuf_Timestamp | null);
  'relatedId'?: (string);
  '_description'?: "description";
  '_relatedId'?: "relatedId";
}

export interface Transaction__Output {
  'transactionId': (string);
  'kind': (string);
  'amount': (number);
  'allocations': (_gatehouse_v1_Allocation__Output)[];
  'description'?: (string);
  'createdAt': (_google_protobuf_Timestamp__Output | null);
  'relatedId'?: (string);
}
