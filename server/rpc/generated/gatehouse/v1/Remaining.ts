// Original file: gatehouse/v1/points.proto

import type { Long } from '@grpc/proto-loader';

export interface Remaining {
  'quota'?: (number | string | Long);
  'pool'?: (number | string | Long);
  'total'?: (number | string | Long);
}

export interface Remaining__Output {
  'quota': (number);
  'pool': (number);
  'total': (number);
}
