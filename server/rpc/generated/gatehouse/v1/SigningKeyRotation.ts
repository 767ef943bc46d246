// Original file: gatehouse/v1/admin.proto

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../google/protobuf/Timestamp.ts';

export interface SigningKeyRotation {
  'kid'?: (string);
  'previousKid'?: (string);
  'previousRetiresAt'?: (_google_protobuf_Timestamp | null);
  'algorithm'?: (string);
  '_previousKid'?: "previousKid";
}

export interface SigningKeyRotation__Output {
  'kid': (string);
  'previousKid'?: (string);
  'previousRetiresAt': (_google_protobuf_Timestamp__Output | null);
  'algorithm': (string);
}
