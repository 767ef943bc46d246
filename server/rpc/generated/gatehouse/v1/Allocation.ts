// Original file: gatehouse/v1/points.proto

import type { Long } from '@grpc/proto-loader';

export interface Allocation {
  'creditKind'?: (string);
  'sourceId'?: (string);
  'amount'?: (number | string | Long);
}

export interface Allocation__Output {
  'creditKind': (string);
  'sourceId': (string);
  'amount': (number);
}
