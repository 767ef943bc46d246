// Original file: gatehouse/v1/points.proto

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../google/protobuf/Timestamp.ts';
import type { Long } from '@grpc/proto-loader';

export interface OpenHold {
  'holdId'?: (string);
  'amount'?: (number | string | Long);
  'expiresAt'?: (_google_protobuf_Timestamp | null);
}

export interface OpenHold__Output {
  'holdId': (string);
  'amount': (number);
  'expiresAt': (_google_protobuf_Timestamp__Output | null);
}
