// Original file: gatehouse/v1/admin.proto


export interface RedeliverWebhookRequest {
  'realmId'?: (string);
  'webhookId'?: (string);
  'deliveryId'?: (string);
}

export interface RedeliverWebhookRequest__Output {
  'realmId': (string);
  'webhookId': (string);
  'deliveryId': (string);
}
