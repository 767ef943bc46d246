// Original file: gatehouse/v1/admin.proto


export interface GetWebhookRequest {
  'realmId'?: (string);
  'webhookId'?: (string);
}

export interface GetWebhookRequest__Output {
  'realmId': (string);
  'webhookId': (string);
}
