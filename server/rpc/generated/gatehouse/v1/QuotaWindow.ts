// Original file: gatehouse/v1/points.proto

import type { Long } from '@grpc/proto-loader';

export interface QuotaWindow {
  'windowSeconds'?: (number | string | Long);
  'limit'?: (number | string | Long);
  '_windowSeconds'?: "windowSeconds";
  '_limit'?: "limit";
}

export interface QuotaWindow__Output {
  'windowSeconds'?: (number);
  'limit'?: (number);
}
