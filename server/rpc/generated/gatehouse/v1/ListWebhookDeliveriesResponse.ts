// Original file: gatehouse/v1/admin.proto

import type { WebhookDelivery as _gatehouse_v1_WebhookDelivery, WebhookDelivery__Output as _gatehouse_v1_WebhookDelivery__Output } from '../../gatehouse/v1/WebhookDelivery.ts';

export interface ListWebhookDeliveriesResponse {
  'deliveries'?: (_gatehouse_v1_WebhookDelivery)[];
  'nextPageToken'?: (string);
}

export interface ListWebhookDeliveriesResponse__Output {
  'deliveries': (_gatehouse_v1_WebhookDelivery__Output)[];
  'nextPageToken': (string);
}
