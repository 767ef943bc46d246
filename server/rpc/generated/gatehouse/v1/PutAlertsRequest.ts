// Original file: gatehouse/v1/points.proto

import type { Long } from '@grpc/proto-loader';

export interface PutAlertsRequest {
  'realmId'?: (string);
  'lowBalanceThresholds'?: (number | string | Long)[];
  'quotaExhausted'?: (boolean);
  'quotaRecovered'?: (boolean);
}

export interface PutAlertsRequest__Output {
  'realmId': (string);
  'lowBalanceThresholds': (number)[];
  'quotaExhausted': (boolean);
  'quotaRecovered': (boolean);
}
