// Original file: gatehouse/v1/admin.proto

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../google/protobuf/Timestamp.ts';

export interface Identity {
  'provider'?: (string);
  'subject'?: (string);
  'createdAt'?: (_google_protobuf_Timestamp | null);
  'email'?: (string);
  'emailForwarding'?: (string);
  '_emailForwarding'?: "emailForwarding";
}

export interface Identity__Output {
  'provider': (string);
  'subject': (string);
  'createdAt': (_google_protobuf_Timestamp__Output | null);
  'email': (string);
  'emailForwarding'?: (string);
}
