// Original file: gatehouse/v1/points.proto

import type { Long } from '@grpc/proto-loader';

export interface PointBalances {
  'topup'?: (number | string | Long);
  'registration'?: (number | string | Long);
  'granted'?: (number | string | Long);
  'subscription'?: (number | string | Long);
  'freePeriodic'?: (number | string | Long);
}

export interface PointBalances__Output {
  'topup': (number);
  'registration': (number);
  'granted': (number);
  'subscription': (number);
  'freePeriodic': (number);
}
