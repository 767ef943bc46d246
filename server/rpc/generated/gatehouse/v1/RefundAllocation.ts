// Original file: gatehouse/v1/points.proto

import type { Long } from '@grpc/proto-loader';

export interface RefundAllocation {
  'creditKind'?: (string);
  'sourceId'?: (string);
  'amount'?: (number | string | Long);
  'returned'?: (number | string | Long);
}

export interface RefundAllocation__Output {
  'creditKind': (string);
  'sourceId': (string);
  'amount': (number);
  'returned': (number);
}
