// Original file: gatehouse/v1/admin.proto

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../google/protobuf/Timestamp.ts';

export interface Webhook {
  'id'?: (string);
  'realmId'?: (string);
  'url'?: (string);
  'eventTypes'?: (string)[];
  'description'?: (string);
  'enabled'?: (boolean);
  'secret'?: (string);
  'createdAt'?: (_google_protobuf_Timestamp | null);
  'updatedAt'?: (_google_protobuf_Timestamp | null);
  'previousSecretExpiresAt'?: (_google_protobuf_Timestamp | null);
}

export interface Webhook__Output {
  'id': (string);
  'realmId': (string);
  'url': (string);
  'eventTypes': (string)[];
  'description': (string);
  'enabled': (boolean);
  'secret': (string);
  'createdAt': (_google_protobuf_Timestamp__Output | null);
  'updatedAt': (_google_protobuf_Timestamp__Output | null);
  'previousSecretExpiresAt': (_google_protobuf_Timestamp__Output | null);
}
