// Original file: gatehouse/v1/admin.proto

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../google/protobuf/Timestamp.ts';
import type { Long } from '@grpc/proto-loader';

export interface WebhookAttempt {
  'at'?: (_google_protobuf_Timestamp | null);
  'httpStatus'?: (number);
  'error'?: (string);
  'durationMs'?: (number | string | Long);
}

export interface WebhookAttempt__Output {
  'at': (_google_protobuf_Timestamp__Output | null);
  'httpStatus': (number);
  'error': (string);
  'durationMs': (number);
}
