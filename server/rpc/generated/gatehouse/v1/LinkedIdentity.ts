// Original file: gatehouse/v1/auth.proto

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../google/protobuf/Timestamp.ts';

export interface LinkedIdentity {
  'provider'?: (string);
  'subject'?: (string);
  'email'?: (string);
  'emailForwarding'?: (string);
  'linkedAt'?: (_google_protobuf_Timestamp | null);
  '_emailForwarding'?: "emailForwarding";
}

export interface LinkedIdentity__Output {
  'provider': (string);
  'subject': (string);
  'email': (string);
  'emailForwarding'?: (string);
  'linkedAt': (_google_protobuf_Timestamp__Output | null);
}
