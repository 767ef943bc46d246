// Original file: gatehouse/v1/admin.proto

import type { StringList as _gatehouse_v1_StringList, StringList__Output as _gatehouse_v1_StringList__Output } from '../../gatehouse/v1/StringList.ts';

export interface UpdateWebhookRequest {
  'realmId'?: (string);
  'webhookId'?: (string);
  'url'?: (string);
  'eventTypes'?: (_gatehouse_v1_StringList | null);
  'description'?: (string);
  'enabled'?: (boolean);
  '_url'?: "url";
  '_description'?: "description";
  '_enabled'?: "enabled";
}

export interface UpdateWebhookRequest__Output {
  'realmId': (string);
  'webhookId': (string);
  'url'?: (string);
  'eventTypes': (_gatehouse_v1_StringList__Output | null);
  'description'?: (string);
  'enabled'?: (boolean);
}
