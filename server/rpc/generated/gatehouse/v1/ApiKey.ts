// Original file: gatehouse/v1/admin.proto

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../google/protobuf/Timestamp.ts';

export interface ApiKey {
  'id'?: (string);
  'realm'?: (string);
  'permissions'?: (string)[];
  'name'?: (string);
  'createdAt'?: (_google_protobuf_Timestamp | null);
  'revokedAt'?: (_google_protobuf_Timestamp | null);
}

export interface ApiKey__Output {
  'id': (string);
  'realm': (string);
  'permissions': (string)[];
  'name': (string);
  'createdAt': (_google_protobuf_Timestamp__Output | null);
  'revokedAt': (_google_protobuf_Timestamp__Output | null);
}
