// Original file: gatehouse/v1/admin.proto

import type { Webhook as _gatehouse_v1_Webhook, Webhook__Output as _gatehouse_v1_Webhook__Output } from '../../gatehouse/v1/Webhook.ts';

export interface ListWebhooksResponse {
  'webhooks'?: (_gatehouse_v1_Webhook)[];
}

export interface ListWebhooksResponse__Output {
  'webhooks': (_gatehouse_v1_Webhook__Output)[];
}
