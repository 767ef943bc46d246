// Original file: gatehouse/v1/points.proto

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../google/protobuf/Timestamp.ts';
import type { Long } from '@grpc/proto-loader';

export interface PointsAlerts {
  'realmId'?: (string);
  'lowBalanceThresholds'?: (number | string | Long)[];
  'quotaExhausted'?: (boolean);
  'quotaRecovered'?: (boolean);
  'updatedAt'?: (_google_protobuf_Timestamp | null);
}

export interface PointsAlerts__Output {
  'realmId': (string);
  'lowBalanceThresholds': (number)[];
  'quotaExhausted': (boolean);
  'quotaRecovered': (boolean);
  'updatedAt': (_google_protobuf_Timestamp__Output | null);
}
