// Original file: gatehouse/v1/admin.proto

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../google/protobuf/Timestamp.ts';
import type { WebhookAttempt as _gatehouse_v1_WebhookAttempt, WebhookAttempt__Output as _gatehouse_v1_WebhookAttempt__Output } from '../../gatehouse/v1/WebhookAttempt.ts';

export interface WebhookDelivery {
  'id'?: (string);
  'webhookId'?: (string);
  'eventId'?: (string);
  'eventType'?: (string);
  'status'?: (string);
  'attemptCount'?: (number);
  'createdAt'?: (_google_protobuf_Timestamp | null);
  'nextAttemptAt'?: (_google_protobuf_Timestamp | null);
  'attempts'?: (_gatehouse_v1_WebhookAttempt)[];
}

export interface WebhookDelivery__Output {
  'id': (string);
  'webhookId': (string);
  'eventId': (string);
  'eventType': (string);
  'status': (string);
  'attemptCount': (number);
  'createdAt': (_google_protobuf_Timestamp__Output | null);
  'nextAttemptAt': (_google_protobuf_Timestamp__Output | null);
  'attempts': (_gatehouse_v1_WebhookAttempt__Output)[];
}
