// Original file: gatehouse/v1/billing.proto

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../google/protobuf/Timestamp.ts';

export interface Subscription {
  'subscriptionId'?: (string);
  'realmId'?: (string);
  'userId'?: (string);
  'mappingId'?: (string);
  'externalSubscriptionId'?: (string);
  'status'?: (string);
  'entitlement'?: (string);
  'startedAt'?: (_google_protobuf_Timestamp | null);
  'canceledAt'?: (_google_protobuf_Timestamp | null);
}

export interface Subscription__Output {
  'subscriptionId': (string);
  'realmId': (string);
  'userId': (string);
  'mappingId': (string);
  'externalSubscriptionId': (string);
  'status': (string);
  'entitlement': (string);
  'startedAt': (_google_protobuf_Timestamp__Output | null);
  'canceledAt': (_google_protobuf_Timestamp__Output | null);
}
