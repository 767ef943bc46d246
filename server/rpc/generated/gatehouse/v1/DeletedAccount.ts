// Original file: gatehouse/v1/auth.proto

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../google/protobuf/Timestamp.ts';

export interface DeletedAccount {
  'userId'?: (string);
  'deletedAt'?: (_google_protobuf_Timestamp | null);
  'appleRevocation'?: (string);
}

export interface DeletedAccount__Output {
  'userId': (string);
  'deletedAt': (_google_protobuf_Timestamp__Output | null);
  'appleRevocation': (string);
}
