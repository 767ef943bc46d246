// Original file: gatehouse/v1/points.proto

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../google/protobuf/Timestamp.ts';
import type { Long } from '@grpc/proto-loader';

export interface WindowUsage {
  'creditKind'?: (string);
  'key'?: (string);
  'windowSeconds'?: (number | string | Long);
  'limit'?: (number | string | Long);
  'used'?: (number | string | Long);
  'remaining'?: (number | string | Long);
  'nextRecoveryAt'?: (_google_protobuf_Timestamp | null);
  'resetsAt'?: (_google_protobuf_Timestamp | null);
  'isTightest'?: (boolean);
  'exhausted'?: (boolean);
}

export interface WindowUsage__Output {
  'creditKind': (string);
  'key': (string);
  'windowSeconds': (number);
  'limit': (number);
  'used': (number);
  'remaining': (number);
  'nextRecoveryAt': (_google_protobuf_Timestamp__Output | null);
  'resetsAt': (_google_protobuf_Timestamp__Output | null);
  'isTightest': (boolean);
  'exhausted': (boolean);
}
