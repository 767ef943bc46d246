// Original file: gatehouse/v1/billing.proto

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../google/protobuf/Timestamp.ts';
import type { Long } from '@grpc/proto-loader';

export interface BillingNotification {
  'notificationId'?: (string);
  'realmId'?: (string);
  'paymentProvider'?: (string);
  'externalId'?: (string);
  'type'?: (string);
  'status'?: (string);
  'reason'?: (string);
  'userId'?: (string);
  'externalProductId'?: (string);
  'externalSubscriptionId'?: (string);
  'subscriptionId'?: (string);
  'duplicates'?: (number | string | Long);
  'providerAt'?: (_google_protobuf_Timestamp | null);
  'receivedAt'?: (_google_protobuf_Timestamp | null);
  'appliedAt'?: (_google_protobuf_Timestamp | null);
}

export interface BillingNotification__Output {
  'notificationId': (string);
  'realmId': (string);
  'paymentProvider': (string);
  'externalId': (string);
  'type': (string);
  'status': (string);
  'reason': (string);
  'userId': (string);
  'externalProductId': (string);
  'externalSubscriptionId': (string);
  'subscriptionId': (string);
  'duplicates': (number);
  'providerAt': (_google_protobuf_Timestamp__Output | null);
  'receivedAt': (_google_protobuf_Timestamp__Output | null);
  'appliedAt': (_google_protobuf_Timestamp__Output | null);
}
