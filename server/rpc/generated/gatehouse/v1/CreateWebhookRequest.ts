// Original file: gatehouse/v1/admin.proto


export interface CreateWebhookRequest {
  'realmId'?: (string);
  'url'?: (string);
  'eventTypes'?: (string)[];
  'description'?: (string);
  'enabled'?: (boolean);
  '_enabled'?: "enabled";
}

export interface CreateWebhookRequest__Output {
  'realmId': (string);
  'url': (string);
  'eventTypes': (string)[];
  'description': (string);
  'enabled'?: (boolean);
}
