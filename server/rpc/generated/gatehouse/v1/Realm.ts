// Original file: gatehouse/v1/admin.proto

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../google/protobuf/Timestamp.ts';

export interface Realm {
  'id'?: (string);
  'name'?: (string);
  'createdAt'?: (_google_protobuf_Timestamp | null);
}

export interface Realm__Output {
  'id': (string);
  'name': (string);
  'createdAt': (_google_protobuf_Timestamp__Output | null);
}
