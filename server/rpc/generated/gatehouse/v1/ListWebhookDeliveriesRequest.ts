// Original file: gatehouse/v1/admin.proto


export interface ListWebhookDeliveriesRequest {
  'realmId'?: (string);
  'webhookId'?: (string);
  'status'?: (string);
  'pageSize'?: (number);
  'pageToken'?: (string);
  '_pageSize'?: "pageSize";
}

export interface ListWebhookDeliveriesRequest__Output {
  'realmId': (string);
  'webhookId': (string);
  'status': (string);
  'pageSize'?: (number);
  'pageToken': (string);
}
